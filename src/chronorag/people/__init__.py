"""People of a personal knowledge base: who they are, what they are called, who may see whom.

* ``model``: :class:`Person` and :class:`Directory` (people plus access grants).
* ``load``: ``load_directory(path)`` validates a people file (errors like documents).
* ``resolve``: names and aliases in a question -> person ids (longest match first).
"""

from chronorag.people.load import load_directory, parse_directory
from chronorag.people.model import Directory, Person
from chronorag.people.resolve import find_people, normalise

__all__ = ["Directory", "Person", "find_people", "load_directory", "normalise",
           "parse_directory"]
