"""Every flag a hit, an evidence item or an answer can carry, in one enum.

A flag says why something was ranked, kept or answered as it was. Stages set and test
members, never spellings, so mypy catches a misspelt flag; the JSON carries the value.
Data a flag used to carry (the owners of parallel views) lives in fields of its own.
"""

from __future__ import annotations

import enum


class Flag(enum.StrEnum):
    """A reason, named once. Grouped by the stage that sets it."""

    # Validity of the document at ``as_of`` (``rank.validity``), in their shown order.
    DRAFT = "draft"
    RETIRED = "retired"
    NOT_YET_VALID = "not_yet_valid"
    EXPIRED = "expired"
    SUPERSEDED = "superseded"
    DERIVED_COPY = "derived_copy"
    UNDATED = "undated"
    LINK_CYCLE = "link_cycle"

    # The document's conditions (``applies_to``) against the asker's attributes
    # (``rank.conditions``): written for other askers; written for a case the asker's
    # attributes do not say (a key the asker has no value for).
    NOT_APPLICABLE = "not_applicable"
    CONDITION_UNKNOWN = "condition_unknown"

    # The question's time against the passage's (``rank.temporal``).
    VIOLATES_TIME = "violates_time"
    TIME_UNKNOWN = "time_unknown"
    TIME_VERIFIED = "time_verified"
    TIME_OPEN = "time_open"
    EDGE_UNVERIFIED = "edge_unverified"

    # Relevance without the cross-encoder's judgement (``rank.rerank_ce``).
    NOT_RERANKED = "not_reranked"
    # Not judged because a passage before it already was, relevant enough
    # (``SearchConfig.rerank_enough``); also ``not_reranked``.
    RERANK_CUT_SHORT = "rerank_cut_short"
    RERANK_SKIPPED_CJK = "rerank_skipped_cjk"
    # A Chinese passage of a document that names none of the Latin-letter names the
    # question spells ("GitHub") while a passage in another script does, or a passage in
    # the question's script while the question names a document in the other by its
    # title: read after the rest (``rank.spelled``).
    NAMES_ABSENT = "names_absent"
    # A passage of the document whose whole title the question says, moved before the
    # others at the answer stage (``answer.titled``); or of a document in another script
    # the question names by its title in words of its own ("可接受使用政策": "Acceptable
    # Use Policy"), read first and moved first (``pipeline.named``).
    TITLE_NAMED = "title_named"
    # One of the two Chinese passages the dense retriever finds nearest to a question in
    # English, of a document held in Chinese only: judged by the multilingual judge
    # wherever the pool order puts it (``pipeline.across``).
    OTHER_SCRIPT = "other_script"

    # An evidence item that cannot decide (``answer.evidence``, ``answer.headings``).
    NON_DECISIVE = "non_decisive"
    ONLY_HEADINGS = "only_headings"

    # How the answer was decided (``answer.decide``, ``answer.personal``).
    RESTS_ON_UNDATED = "rests_on_undated"
    PARALLEL_VIEWS = "parallel_views"
    # A question for everything in a period is answered with every fact found, in time
    # order (``answer.listing``).
    LISTED = "listed"
    # Sources written for different askers (``applies_to``) say different things and the
    # asker's attributes do not choose: every variant is answered, labelled.
    VARIANTS = "variants"
    NO_APPLICABLE_EVIDENCE = "no_applicable_evidence"
    ONLY_NON_DECISIVE = "only_non_decisive"
    ONLY_UPCOMING = "only_upcoming"
    TIME_UNVERIFIED = "time_unverified"
    UPCOMING_UNCHANGED = "upcoming_unchanged"
    NO_MATCHING_RECORDS = "no_matching_records"
    # No declared version of the relevant documents covers ``as_of`` (``answer.gaps``).
    TIME_NOT_COVERED = "time_not_covered"

    # A "what changed" question over a version chain (``answer.changes``): no version
    # before the one in force; no version took effect in the period asked about; the
    # compared versions state the same sentences.
    NO_EARLIER_VERSION = "no_earlier_version"
    NO_VERSION_IN_PERIOD = "no_version_in_period"
    VERSIONS_IDENTICAL = "versions_identical"

    # The short answer checked against its evidence (``answer.check``): neither stated
    # in nor computed from it; a cited record outside the period asked about; a time
    # asked and none stated; a date the evidence's own text contradicts (it says
    # "yesterday", the answer names the day it was said); a heading or markup line; less
    # than the question needs (no number where one is asked, a sentence cut short).
    ANSWER_UNSUPPORTED = "answer_unsupported"
    EVIDENCE_OUTSIDE_INTERVAL = "evidence_outside_interval"
    NO_TIME_IN_EVIDENCE = "no_time_in_evidence"
    DATE_CONTRADICTED_BY_TEXT = "date_contradicted_by_text"
    ANSWER_IS_HEADING = "answer_is_heading"
    ANSWER_INCOMPLETE = "answer_incomplete"

    # Where a date answer came from (``answer.when``): records as relevant state other
    # times; the record states none and its recorded date answers; another of the most
    # relevant records states it (cited first); a period counted back from its anchor
    # ("for 10 years", said in 2023: 2013), exact to the duration's unit.
    TIMES_DISAGREE = "times_disagree"
    TIME_FROM_METADATA = "time_from_metadata"
    TIME_FROM_RELATED_RECORD = "time_from_related_record"
    TIME_FROM_DURATION = "time_from_duration"

    # A model's written answer (``answer.generate``).
    GENERATED_ANSWER_REJECTED = "generated_answer_rejected"
    GENERATION_FAILED = "generation_failed"


Flags = tuple[Flag, ...]
"""The flags of one item, in the order they were set."""
