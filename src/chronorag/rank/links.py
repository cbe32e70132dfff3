"""Graph algorithms over document links (``supersedes``, ``derived_from``) for validity.

Pure functions of id -> linked ids mappings; the rules that use them are in
``chronorag.rank.validity``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def cycle_components(edges: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Nodes on a cycle of a link graph, each mapped to the smallest id of its cycle.

    A cycle is a strongly connected component (iterative Tarjan) of two or more nodes, or a
    node linking to itself. Nodes on no cycle are absent from the result.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: dict[str, str] = {}
    for root in edges:
        if root in index or not edges[root]:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = edges.get(node, ())
            if i < len(targets):
                work.append((node, i + 1))
                target = targets[i]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                _pop_component(node, stack, on_stack, edges, cycles)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return cycles


def _pop_component(node: str, stack: list[str], on_stack: set[str],
                   edges: Mapping[str, Sequence[str]], cycles: dict[str, str]) -> None:
    """Pop the component rooted at ``node``; record it in ``cycles`` when it is a cycle."""
    members: list[str] = []
    while True:
        member = stack.pop()
        on_stack.discard(member)
        members.append(member)
        if member == node:
            break
    if len(members) > 1 or node in edges.get(node, ()):
        smallest = min(members)
        cycles.update(dict.fromkeys(members, smallest))


def same_cycle(cycles: Mapping[str, str], a: str, b: str) -> bool:
    """True when the link ``a -> b`` lies on a cycle (and is therefore broken)."""
    return a == b or (a in cycles and cycles[a] == cycles.get(b))


def copy_roots(parents: Mapping[str, tuple[str, ...]], cycles: Mapping[str, str]) -> dict[str, str]:
    """Root origin of every copy: follow the first unbroken ``derived_from`` link upward.

    A cycle member without outside links roots at the smallest id of its cycle, so a
    cycle of mutual copies counts as one voice. Missing targets are roots themselves.
    Documents absent from the result are their own root.
    """
    roots: dict[str, str] = {}
    for start in parents:
        path: list[str] = []
        node = start
        while node not in roots:
            path.append(node)
            links = parents.get(node, ())
            if not links:
                roots[node] = cycles.get(node, node)
                break
            node = links[0]
        root = roots[node]
        for visited in path:
            roots[visited] = root
    return roots


def version_lineages(sup_edges: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Union-find over ``supersedes``: every version maps to its lineage's smallest id."""
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for doc_id, targets in sup_edges.items():
        for target in targets:
            a, b = find(doc_id), find(target)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {node: find(node) for node in parent}
