"""One measured figure of `make bench`: a ratio against a baseline measured in
the same run, and the goal it is held to. Every benchmark returns a list of
these; the runner prints them as one table and writes bench/results.json."""

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Figure:
    name: str  # what is measured against what, e.g. "the autosave under a flood / alone"
    ratio: float  # the median ratio (the median of repeats where the runner repeats)
    goal: float | None  # None: printed for information, no budget
    at_least: bool = False  # True when the goal is a floor (throughput), not a ceiling
    note: str = ""  # what dominates, from a profile, when the figure falls short

    @property
    def passed(self) -> bool | None:
        if self.goal is None:
            return None
        return self.ratio >= self.goal if self.at_least else self.ratio <= self.goal

    @property
    def goal_text(self) -> str:
        if self.goal is None:
            return "(information)"
        return f"{'≥' if self.at_least else '≤'} {self.goal:g}×"

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "passed": self.passed}
