"""The figures command itself: `python benchmarks/trust.py --quick` prints `name value unit target met|missed`.

The parts' quick budgets are what the other tests in tests/trust run; here one cheap part goes through
the command end to end, so the script the README quotes stays runnable.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^[a-z0-9_]+ -?[0-9.e+]+ \S+ (=|>=|<=)-?[0-9.]+ (met|missed)$")


def test_the_figures_command_prints_figures_with_targets():
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "trust.py"), "--quick", "--only", "forgery"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    lines = proc.stdout.strip().splitlines()
    assert lines and all(LINE.match(x) for x in lines), proc.stdout + proc.stderr
    figures = {x.split()[0]: x for x in lines}
    assert figures["forgeries_accepted"].startswith("forgeries_accepted 0 ") and "met" in figures["forgeries_accepted"]
    assert proc.returncode == 0, proc.stdout + proc.stderr
