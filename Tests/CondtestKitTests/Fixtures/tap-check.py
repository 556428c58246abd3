"""Reads a TAP stream with tappy (Debian's python3-tap), the TAP 14 consumer of ReportTests,
and prints what it understood: the version, `ok N`, `not ok N` with the YAML keys of each
failure's diagnostics, and the plan. Exits 1 on any line it could not read."""
import sys
from tap.parser import Parser

try:  # without these tappy reads TAP 14 as TAP 13 and its YAML blocks as unknown lines
    import yaml, more_itertools  # noqa: F401
except ImportError as missing:
    sys.exit(f"tap-check: tappy needs python3-yaml and python3-more-itertools for TAP 14 ({missing})")

status = 0
for line in Parser().parse_text(sys.stdin.read()):
    if line.category == "version":
        print("version", line.version)
    elif line.category == "test":
        keys = sorted(line.yaml_block.keys()) if line.yaml_block else []
        print(("ok" if line.ok else "not ok"), line.number, line.description, " ".join(keys))
    elif line.category == "plan":
        print("plan", line.expected_tests)
    elif line.category == "bail":
        print("bail", line.reason)
    elif line.category == "diagnostic":
        print("diagnostic")
    else:
        print("unknown:", getattr(line, "text", line))
        status = 1
sys.exit(status)
