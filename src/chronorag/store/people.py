"""SQL of the people tables (migration ``m004_people``) and of record visibility that
binds parameters; reading the people is shared with PostgreSQL (``common``).

Privacy is a rule in the store query: the documents a reader may see are selected in SQL
(:func:`visible_doc_ids`), and retrieval only ever scores chunks of those documents.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from chronorag.people.model import Directory

# A document is visible to reader :user when it has no subject, is about the reader, or
# is about someone who granted the reader access. :admin sees everything.
# Written so it is never NULL (three-valued logic would make ``NOT _VISIBLE`` NULL, and a
# hidden record would then count as visible when no user is given).
_VISIBLE = """(:admin = 1 OR subject IS NULL OR (:user IS NOT NULL AND (subject = :user
    OR subject IN (SELECT subject FROM access_grants WHERE reader = :user))))"""
_ABOUT = "(:subjects IS NULL OR subject IN (SELECT value FROM json_each(:subjects)))"


def replace_directory(conn: sqlite3.Connection, directory: Directory) -> None:
    """Replace every person and grant by ``directory`` (inside the caller's transaction)."""
    conn.execute("DELETE FROM access_grants")
    conn.execute("DELETE FROM people")
    conn.executemany("INSERT INTO people (id, name, aliases, attributes) "
                        "VALUES (?, ?, ?, ?)",
                     [(p.id, p.name, json.dumps(list(p.aliases), ensure_ascii=False),
                      json.dumps(dict(p.attributes), ensure_ascii=False))
                      for p in directory.people])
    conn.executemany("INSERT INTO access_grants (reader, subject) VALUES (?, ?)",
                     [(reader, subject) for reader, subjects in directory.access.items()
                      for subject in subjects])


def visible_doc_ids(conn: sqlite3.Connection, user: str | None, *, admin: bool,
                    subjects: Sequence[str] | None,
                    among: Sequence[str] | None = None) -> frozenset[str] | None:
    """Ids of the documents ``user`` may see, only those about ``subjects`` when given,
    and only among the ids ``among`` when given.

    ``None`` means "no restriction": every stored document is visible (the common case
    of a knowledge base without personal records costs one indexed EXISTS query).
    """
    params = {"admin": int(admin), "user": user,
              "subjects": None if subjects is None else json.dumps(list(subjects))}
    if among is not None:
        params["among"] = json.dumps(list(among))
        rows = conn.execute(f"SELECT id FROM documents WHERE {_VISIBLE} AND {_ABOUT} AND id "
                            "IN (SELECT value FROM json_each(:among))", params)
        return frozenset(r[0] for r in rows)
    if subjects is None:
        hidden = conn.execute(f"SELECT EXISTS (SELECT 1 FROM documents WHERE NOT {_VISIBLE})",
                              params).fetchone()[0]
        if not hidden:
            return None
    rows = conn.execute(f"SELECT id FROM documents WHERE {_VISIBLE} AND {_ABOUT}", params)
    return frozenset(r[0] for r in rows)


def chunk_ids_of(conn: sqlite3.Connection, doc_ids: Sequence[str]) -> frozenset[str]:
    """Ids of every chunk of the given documents."""
    rows = conn.execute("SELECT id FROM chunks WHERE doc_id IN (SELECT value FROM json_each(?))",
                        (json.dumps(list(doc_ids)),))
    return frozenset(r[0] for r in rows)
