"""Column arrays that persist as ``.npy`` files and load memory-mapped."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np


class Strings:
    """A column of strings kept as one UTF-8 blob with offsets: string ``i`` is
    ``blob[ptr[i]:ptr[i+1]]``. Memory-mapped, it reads only the strings asked for."""

    def __init__(self, blob: np.ndarray, ptr: np.ndarray) -> None:
        self.blob = blob
        self.ptr = ptr

    @classmethod
    def from_list(cls, values: Sequence[str]) -> Strings:
        encoded = [v.encode() for v in values]
        ptr = np.zeros(len(encoded) + 1, np.int64)
        np.cumsum([len(e) for e in encoded], out=ptr[1:])
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8), ptr)

    def __len__(self) -> int:
        return int(self.ptr.shape[0]) - 1

    def __getitem__(self, i: int) -> str:
        return self.blob[int(self.ptr[i]):int(self.ptr[i + 1])].tobytes().decode()

    def tolist(self) -> list[str]:
        """Every string, in order (one decode of the blob, then slicing)."""
        data = self.blob.tobytes()
        ends = self.ptr.tolist()
        if data.isascii():
            text = data.decode()
            return [text[a:z] for a, z in itertools.pairwise(ends)]
        return [data[a:z].decode() for a, z in itertools.pairwise(ends)]

    def arrays(self, name: str) -> dict[str, np.ndarray]:
        return {f"{name}.blob": self.blob, f"{name}.ptr": self.ptr}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], name: str) -> Strings:
        return cls(arrays[f"{name}.blob"], arrays[f"{name}.ptr"])


def save_arrays(folder: Path, arrays: Mapping[str, np.ndarray],
                meta: Mapping[str, Any]) -> None:
    """Write each array as ``NAME.npy`` and ``meta`` as ``meta.json`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)
    (folder / "meta.json").write_text(json.dumps(dict(meta), ensure_ascii=False))


def load_arrays(folder: Path, names: Sequence[str]) -> tuple[dict[str, np.ndarray],
                                                             dict[str, Any]]:
    """The arrays of :func:`save_arrays`, memory-mapped read-only, and the meta data."""
    meta = json.loads((folder / "meta.json").read_text())
    arrays = {}
    for name in names:
        path = folder / f"{name}.npy"
        # An empty array cannot be mapped; it is read instead (it costs nothing).
        arrays[name] = (np.load(path, allow_pickle=False) if path.stat().st_size < 4096
                        else np.load(path, mmap_mode="r", allow_pickle=False))
    return arrays, meta
