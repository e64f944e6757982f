#!/usr/bin/env python3
"""Determinism-contract lint over the deterministic folders (store/ but its
librdkafka client, model/ but model/backends/, properties/): no wall clock,
no threads, no std::random_device, no standard-library distributions or
engines, no unordered containers (whose iteration order can reach the
trace) unless the line says `determinism: not iterated`.

  determinism.py ROOT   prints FILE:LINE: what breaks the contract, exits 1
                        when something does, 0 otherwise.

The files outside the contract are listed here, once (docs/architecture.md
says why): they talk to librdkafka, which waits in wall-clock time and runs
its own threads, or to the Fluss gateway over a socket. Tests are not part
of a run and are not checked.
"""
import pathlib
import re
import sys

DETERMINISTIC = ["store", "model", "properties"]
OUTSIDE = [
    "store/rdkafka_log_client.h", "store/rdkafka_log_client.cc",
    "store/rdkafka_producer.h", "store/rdkafka_producer.cc",
    "store/rdkafka_reader.h", "store/rdkafka_reader.cc",
    "store/rdkafka_support.h", "store/rdkafka_support.cc",
    "store/rdkafka_reaper.h", "store/rdkafka_reaper.cc",
    "store/rdkafka_query_threads.h", "store/rdkafka_query_threads.cc",
    "store/rdkafka_thread_mask.h", "store/rdkafka_thread_mask.cc",
    "store/rdkafka_topic_admin.h", "store/rdkafka_topic_admin.cc",
    "store/rdkafka_topic_identity.h", "store/rdkafka_topic_identity.cc",
    "store/kafka_mock_cluster.h", "store/kafka_mock_cluster.cc",
    "store/rdkafka_log.h", "store/rdkafka_log.cc",
    "store/rdkafka_broker_check.h", "store/rdkafka_broker_check.cc",
    "store/fluss_gateway.h", "store/fluss_gateway.cc",
    "store/fluss_gateway_log_client.h", "store/fluss_gateway_log_client.cc",
    "store/run_sync.h", "store/put_latency_bench.cc",
    "model/backends/",
]
RULES = [
    (re.compile(r"\b(system_clock|steady_clock|high_resolution_clock|gettimeofday|clock_gettime)\b"
                r"|\btime\s*\(\s*(nullptr|NULL|0)\s*\)"), "wall clock"),
    (re.compile(r"#\s*include\s*<(thread|future|mutex|condition_variable|ctime|sys/time\.h)>"
                r"|\bstd::(thread|jthread|async|mutex)\b|\bpthread_"), "threads or wall clock"),
    (re.compile(r"\brandom_device\b|#\s*include\s*<random>"), "std::random_device or <random>"),
    (re.compile(r"\b\w+_distribution\b|\bmt19937(_64)?\b|\bdefault_random_engine\b|\b(s)?rand\s*\("),
     "standard-library random numbers"),
    (re.compile(r"\bunordered_(map|set|multimap|multiset)\b"), "unordered container"),
]
WAIVER = "determinism: not iterated"


def outside(relative: str) -> bool:
    return any(relative == entry or (entry.endswith("/") and relative.startswith(entry)) for entry in OUTSIDE)


def check(root: pathlib.Path) -> list[str]:
    problems = []
    for folder in DETERMINISTIC:
        for path in sorted((root / folder).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.suffix not in (".h", ".cc") or path.name.endswith("_test.cc") or outside(relative):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                code = line.split("//", 1)[0] if "#" not in line else line
                for pattern, what in RULES:
                    if pattern.search(code) and not (what == "unordered container" and WAIVER in line):
                        problems.append(f"{relative}:{number}: {what}: {line.strip()}")
    return problems


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: determinism.py ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    problems = check(root)
    for problem in problems:
        print(problem)
    print(f"determinism: {len(problems)} line(s) break the determinism contract")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
