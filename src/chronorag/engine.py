"""The facade: ``Engine(db).ingest(paths)`` and ``Engine(db).ask(question)``. Wiring only."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from os import PathLike
from pathlib import Path
from typing import cast

from chronorag.answer.build import build_answer
from chronorag.answer.changes import changes_answer
from chronorag.answer.generate import write_answer
from chronorag.answer.llm import Generator
from chronorag.clock import system_now
from chronorag.config import SearchConfig, get_preset
from chronorag.coverage import Coverage, store_coverage
from chronorag.errors import ConfigError, StoreError
from chronorag.extensions import Extension, IngestExtension, create_extensions
from chronorag.ingest.git_history import git_inputs
from chronorag.ingest.ids import IdRoot
from chronorag.model import Answer, AnswerStatus, Asking, Intent, Interval, Query
from chronorag.parts import Part, comparison_entities, comparison_times, compose, part_query
from chronorag.people import Directory, load_directory
from chronorag.pipeline.accept import Accepted, Linked, accept_dates, accept_versions
from chronorag.pipeline.chain import not_covered, visible_versions
from chronorag.pipeline.conditions import (
    asker_context,
    check_people,
    declare_condition,
    declared,
    drop_condition,
)
from chronorag.pipeline.delete import delete_documents
from chronorag.pipeline.ingest import (
    Batching,
    Embedders,
    IngestReport,
    Progress,
    ingest_paths,
    reindex_documents,
)
from chronorag.pipeline.search import Components, Ranked, search
from chronorag.pipeline.throttle import Throttled
from chronorag.pipeline.warm import warm_up
from chronorag.retrieve.in_store import complete_search
from chronorag.store.base import Store
from chronorag.store.search import InStoreSearch
from chronorag.understand import resolve_as_of, understand

log = logging.getLogger(__name__)


class Engine:
    """Opens (or creates) a knowledge base and answers questions over it.

    Args:
        db: path of the embedded SQLite store (created when missing), ``":memory:"``, or
            a ``postgresql://`` URI of a PostgreSQL database (the ``postgres`` extra).
        config: a ``SearchConfig`` or the name of a preset (see ``chronorag.config``).
        tz: time zone for naive datetimes in documents and questions.
        clock: source of ``now`` when a call does not pass one (tests always pass one).
        store: an already opened store, instead of ``db``.
        embedder: the embedder for dense retrieval. Default: the one the store's vectors
            were made with (recorded at ingest and by ``reindex``), else the config's.
        judges: the multilingual judges (``SearchConfig.judges``; ``()`` for none, which
            makes ingest store chunk vectors of the dense embedder only). Default: the
            ones the store was built with (recorded like the embedder), else the config's.
        llm: a chat model that writes the answers from the evidence, checked before they
            are shown (``chronorag.answer.generate``): a :class:`Generator`, or the URL of
            an OpenAI-compatible endpoint (``chronorag[llm]``). ``None``: extractive only.
    """

    def __init__(
        self,
        db: str | Path = "chronorag.db",
        *,
        config: SearchConfig | str = "default",
        tz: tzinfo = UTC,
        clock: Callable[[], datetime] = system_now,
        store: Store | None = None,
        embedder: str | None = None,
        judges: Sequence[str] | None = None,
        llm: Generator | str | None = None,
    ) -> None:
        if isinstance(llm, str):
            from chronorag.answer.openai_chat import OpenAIChat

            llm = OpenAIChat(llm)
        self.llm = llm
        if store is None:
            from chronorag.store.opening_uri import open_store

            store = open_store(db)
        self.store = store
        self.config = get_preset(config) if isinstance(config, str) else config
        chosen = embedder or store.setting("embedder") or self.config.embedder
        if chosen != self.config.embedder:
            self.config = replace(self.config, embedder=chosen)
        recorded = store.setting("judges")
        if judges is None and recorded is not None:
            judges = [name for name in recorded.split(",") if name]
        if judges is not None and tuple(judges) != self.config.judges:
            self.config = replace(self.config, judges=tuple(judges))
        self.tz = tz
        self.clock = clock
        self.components = Components(store)
        self.extensions: dict[str, Extension] = create_extensions(
            self.config.extensions, store=store,
            embedder=lambda: self.components.embedder(self.config.embedder))
        self._vectors_checked: int | None = None

    def ingest(
        self,
        paths: Sequence[str | PathLike[str]],
        *,
        now: datetime | None = None,
        progress: Progress | None = None,
        batching: Batching | None = None,
        refresh: bool = True,
        dates_from_text: bool = False,
        allow_dangling: bool = False,
        root: str | PathLike[str] | None = None,
        replace: bool = False,
        git_history: bool = False,
    ) -> IngestReport:
        """Validate and store documents; a rejected ingest changes nothing.

        A Markdown or text file is known by its path from ``root`` (default: the current
        directory), or by the id it is already stored under; replacing a stored document
        that was read from another file is rejected unless ``replace``. ``dates_from_text``
        fills missing valid_from, modified_at and supersedes from what each text states
        ("Effective date: …", 本办法自…起施行); a supersedes/derived_from naming an id
        neither stored nor ingested is rejected unless ``allow_dangling``. ``git_history``
        ingests every version of each tracked file under ``paths`` from its git history
        (``chronorag.ingest.git_history``; it implies ``dates_from_text``).

        Documents are committed in batches: an interrupted ingest keeps the batches it
        committed, and running it again completes it. Then the search indexes saved beside
        the store are brought up to date (``refresh=False`` leaves that to the next
        question or to :meth:`refresh_indexes`, e.g. after several ingests in a row).
        """
        given = [paths] if isinstance(paths, str | Path) else paths
        if git_history:
            with git_inputs(given, root=IdRoot(root).folder(), tz=self.tz) as versions:
                return self.ingest(versions, now=now, progress=progress, batching=batching,
                                   refresh=refresh, dates_from_text=True,
                                   allow_dangling=allow_dangling, root=root, replace=replace)
        report = ingest_paths(
            self.store, given,
            embedders=self._ingest_embedders(), now=now or self.clock(), tz=self.tz,
            progress=progress, root=root, replace=replace,
            batching=batching or Batching(),
            extensions=[e for e in self.extensions.values() if isinstance(e, IngestExtension)],
            committed=self._after_commit() if refresh else None,
            dates_from_text=dates_from_text, allow_dangling=allow_dangling,
        )
        if report.added or report.replaced:
            self._record_embedder()
        if refresh:
            self.refresh_indexes()
        return report

    def reindex(
        self,
        *,
        embedder: str | None = None,
        judges: Sequence[str] | None = None,
        force: bool = False,
        progress: Progress | None = None,
        batching: Batching | None = None,
    ) -> IngestReport:
        """Rebuild chunks, time mentions and vectors of stored documents from their text.

        Only documents derived with another chunker version or embedders are rebuilt, so
        an interrupted reindex resumes; ``force`` rebuilds all. ``embedder`` switches the
        store to another embedder, ``judges`` to other multilingual judges (``()``: none).
        """
        if embedder is not None and embedder != self.config.embedder:
            self.config = replace(self.config, embedder=embedder)
        if judges is not None:
            self.config = replace(self.config, judges=tuple(judges))
        embedders = self._ingest_embedders()
        # Recorded first: an interrupted switch then tells the user to finish it.
        self._record_embedder(replace_existing=True)
        report = reindex_documents(self.store, embedders=embedders, force=force, tz=self.tz,
                                   progress=progress, batching=batching or Batching())
        self.refresh_indexes()
        return report

    def accept_dates(self, ids: Sequence[str] | None = None, *,
                     now: datetime | None = None) -> Accepted:
        """Write the dates and links the texts of documents ``ids`` (all when None) state
        into their empty fields (``chronorag review`` lists them as proposals)."""
        accepted = accept_dates(self.store, ids, embedders=self._ingest_embedders(),
                                now=now or self.clock(), tz=self.tz)
        if accepted.report.replaced:
            self.refresh_indexes()
        return accepted

    def accept_versions(self, ids: Sequence[str] | None = None, *,
                        now: datetime | None = None) -> Linked:
        """Link the version chains ``chronorag review`` proposes (those holding one of
        ``ids``; all when None): each version ``supersedes`` the one before it, when
        every version has a date of its own (see ``pipeline.accept.accept_versions``)."""
        linked = accept_versions(self.store, ids, embedders=self._ingest_embedders(),
                                 now=now or self.clock(), tz=self.tz)
        if linked.report.replaced:
            self.refresh_indexes()
        return linked

    def delete(self, ids: Sequence[str], *, unlink: bool = False) -> tuple[str, ...]:
        """Delete documents with everything derived from them (chunks, sentences, time
        mentions, vectors, their links), in one transaction; the ids deleted, sorted.
        An id that is not stored raises ``NotFoundError`` and nothing is deleted; so
        does a document other documents name (``ConfigError``), unless ``unlink``
        removes those names from them (``pipeline.delete``). The search indexes are then
        brought up to date, as after an ingest."""
        deleted = delete_documents(self.store, ids, unlink=unlink,
                                   embedders=self._ingest_embedders(), now=self.clock(),
                                   tz=self.tz)
        if deleted:
            self.refresh_indexes()
        return deleted

    def refresh_indexes(self) -> None:
        """Bring the search indexes saved beside the store up to its current state, so the
        next question (of this process or a new one) does not build them. A store that
        searches itself keeps no local index: its new chunks get their search terms."""
        if self.components.in_store(self.config):
            try:
                complete_search(cast(InStoreSearch, self.store))
            except StoreError as exc:  # committed all the same; a later question retries
                log.warning("search terms of new chunks not indexed yet: %s", exc)
            return
        dense = [] if "dense" not in self.config.retrievers else [
            (self.config.embedder, self.components.embedder(self.config.embedder).dim)]
        self.components.indexes.refresh(dense)

    def _after_commit(self) -> Callable[[], None]:
        """What runs after each committed batch: a store searching itself indexes the
        batch's terms at once (cheap); local indexes are refreshed now and then."""
        if self.components.in_store(self.config):
            return self.refresh_indexes
        return Throttled(self.refresh_indexes)

    def _ingest_embedders(self) -> Embedders:
        """The dense embedder for chunks, and the judges for chunks and sentences."""
        dense = self.components.embedder(self.config.embedder)
        judges = [self.components.embedder(name) for name in self.config.judges]
        tokens = [self.components.token_encoder(self.config.late)] if self.config.late else []
        return Embedders(chunks=[dense, *(j for j in judges if j.name != dense.name)],
                         sentences=judges, tokens=tokens)

    def _record_embedder(self, *, replace_existing: bool = False) -> None:
        if replace_existing or self.store.setting("embedder") is None:
            self.store.set_setting("embedder", self.config.embedder)
        if replace_existing or self.store.setting("judges") is None:
            self.store.set_setting("judges", ",".join(self.config.judges))

    def check_vectors(self, config: SearchConfig | None = None) -> None:
        """Raise ``ConfigError`` saying what to run when stored chunks lack vectors of the
        embedder (the store was built, or partly rebuilt, with another one)."""
        config = config or self.config
        generation = self.store.generation()
        if self._vectors_checked == generation or "dense" not in config.retrievers:
            return
        name = config.embedder
        missing, chunks = self.components.missing_vectors(config)
        if missing > 0:
            counts = self.store.vector_counts()
            others = ", ".join(f"{n} ({c})" for n, c in sorted(counts.items()) if n != name)
            made = f"; their vectors were made with {others}" if others else ""
            raise ConfigError(
                f"{missing} of {chunks} chunks in the store have no {name!r} vectors{made}. "
                f"Run: chronorag reindex --embedder {name} --db {getattr(self.store, 'path', '…')}")
        self._vectors_checked = generation

    def query(
        self,
        question: str,
        asking: Asking | None = None,
        *,
        now: datetime | None = None,
        as_of: datetime | None = None,
        user: str | None = None,
        k: int = 5,
        admin: bool = False,
        tz: tzinfo | None = None,
        context: Mapping[str, str] | None = None,
    ) -> Query:
        """Understand a question and fix its reference times and zone.

        The circumstances come as one ``asking`` or as keywords (see :class:`Asking`),
        not both. ``tz`` reads naive times of this question (default: the engine's).
        """
        asking = Asking.given(asking, now=now, as_of=as_of, user=user, k=k, admin=admin, tz=tz,
                              context=context)
        zone = asking.tz or self.tz
        moment = _aware(asking.now or self.clock(), zone)
        people = self.store.people()
        attributes = asker_context(asking.context, user=asking.user, people=people,
                                   store=self.store)
        understanding = understand(question, now=moment, tz=zone, people=people,
                                   user=asking.user)
        resolved = (_aware(asking.as_of, zone) if asking.as_of
                    else resolve_as_of(understanding, moment))
        return Query(question, moment, resolved, understanding, user=asking.user, k=asking.k,
                     admin=asking.admin, tz=zone, context=attributes)

    def retrieve(self, query: Query, *, config: SearchConfig | None = None) -> Ranked:
        """Ranked hits for a prepared query (the evaluation harness uses this)."""
        self.check_vectors(config)
        return search(query, config=config or self.config, components=self.components)

    def ask(
        self,
        question: str,
        asking: Asking | None = None,
        *,
        now: datetime | None = None,
        as_of: datetime | None = None,
        user: str | None = None,
        k: int = 5,
        admin: bool = False,
        tz: tzinfo | None = None,
        context: Mapping[str, str] | None = None,
        generate: bool = True,
    ) -> Answer:
        """Answer a question with evidence, provenance and a status.

        Who asks, when, about when and in which zone come as one ``asking`` or as
        keywords (see :class:`Asking`). Without ``user`` only documents without a
        ``subject`` are visible, unless ``admin``. With an ``llm`` the model writes the
        answer (see :meth:`generate`); ``generate=False`` returns the extractive answer,
        to be passed to it later.
        """
        started = time.perf_counter()
        query = self.query(question, asking, now=now, as_of=as_of, user=user, k=k,
                           admin=admin, tz=tz, context=context)
        answer = self._extended(query, self._answered(
            query, timings={"understand": (time.perf_counter() - started) * 1000.0}))
        if times := comparison_times(query):
            answer = self._compared(query, answer, times)
        elif query.understanding.intent is Intent.CHANGE:
            answer = self._what_changed(query, answer)
        elif entities := comparison_entities(
                query, conditions=lambda: declared(self.store),
                bindings=answer.extras.get("semantic", {}).get("bindings", ())):
            answer = compose(answer, [Part(e.label, None, self._extended(
                e.query, self._answered(e.query))) for e in entities])
        elif answer.status is AnswerStatus.NOT_FOUND:
            answer = not_covered(self.store, query, answer,
                                 min_semantic=self.config.min_semantic)
        return self.generate(answer) if generate else answer

    def _extended(self, query: Query, answer: Answer) -> Answer:
        """``answer`` with what extensions add beside the evidence (the semantic layer:
        terms, approved examples and join paths for analytics questions); one without
        anything to add costs a check."""
        extras = dict(answer.extras)
        for name, extension in self.extensions.items():
            added = extension.extend(query)
            if added is not None:
                extras[name] = added
        return replace(answer, extras=extras) if extras != answer.extras else answer

    def _compared(self, query: Query, answer: Answer,
                  times: Sequence[tuple[str, Interval]]) -> Answer:
        """A question that compares times, answered per time (``chronorag.parts``)."""
        return compose(answer, [Part(label, interval, self._answered(part_query(query, interval)))
                                for label, interval in times])

    def _answered(self, query: Query, *, timings: dict[str, float] | None = None) -> Answer:
        """The extractive answer of a prepared query, with each stage's time."""
        ranked = self.retrieve(query)
        timings = {**(timings or {}), **ranked.timings_ms}
        return build_answer(query, ranked.hits, upcoming=ranked.upcoming,
                            documents=ranked.documents, min_semantic=self.config.min_semantic,
                            timings_ms=timings)

    def _what_changed(self, query: Query, answer: Answer) -> Answer:
        """A "what changed" question over a document with versions is answered from the
        version chain (``answer.changes``); any other keeps its answer."""
        if answer.status is AnswerStatus.NOT_FOUND or not answer.evidence \
                or answer.evidence[0].occurred_at is not None:
            return answer
        versions = visible_versions(self.store, answer.evidence[0].doc_id, user=query.user,
                                    admin=query.admin)
        if len(versions) < 2:
            return answer
        return changes_answer(answer, versions, period=query.constraint.interval)

    def generate(self, answer: Answer, *, tz: tzinfo | None = None,
                 on_text: Callable[[str], None] | None = None) -> Answer:
        """The engine's ``llm`` writes the answer from ``answer``'s evidence; it is used only
        when every cited id applies and every number and date is in the cited evidence,
        else the answer turns ``uncertain`` and keeps its extractive answer. ``on_text``
        receives the text as it streams, before that check. Without an ``llm``: unchanged.
        Times are shown in ``tz``, by default the zone the question was read in.
        """
        if self.llm is None:
            return answer
        return write_answer(answer, llm=self.llm, tz=tz or answer.tz, on_text=on_text)

    def coverage(self, *, by: str = "title", unit: str = "year",
                 now: datetime | None = None) -> Coverage:
        """Which periods the store's texts speak of, per group of documents (``by``:
        title, source_type or entity), the holes between them and the documents that
        state no time; open periods end at ``now`` (see ``chronorag.coverage``)."""
        return store_coverage(self.store, by=by, unit=unit, now=now or self.clock())

    def warm_up(self) -> threading.Thread:
        """Load the models of the configured pipeline in a background thread, so a first
        question's understanding and retrieval run while they load (model loading mostly
        runs outside the GIL). Optional: components load on first use anyway."""
        return warm_up(self.components, self.config, tz=self.tz)

    def load_people(self, path: str | Path) -> Directory:
        """Validate a people file and replace the stored people and access grants with it.

        Raises ``ValidationError`` (store unchanged) when the file has any problem.
        """
        directory = load_directory(path)
        check_people(directory, declared(self.store), path=str(path),
                     text=Path(path).read_text(encoding="utf-8"))
        self.store.replace_people(directory)
        return directory

    def conditions(self) -> dict[str, tuple[str, ...]]:
        """The declared condition keys, each with the values it takes (empty: any value;
        see ``chronorag.conditions``)."""
        return declared(self.store)

    def declare_condition(self, key: str, values: Sequence[str] = ()
                          ) -> dict[str, tuple[str, ...]]:
        """Declare a condition key documents' ``applies_to`` and askers may use."""
        return declare_condition(self.store, key, values)

    def drop_condition(self, key: str) -> dict[str, tuple[str, ...]]:
        """Drop a condition key no stored document or person uses."""
        return drop_condition(self.store, key)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _aware(moment: datetime, tz: tzinfo) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=tz)
