"""What the library's measures share: a scored item as published, bands and subscales written as
the score rule holds them (homework/kinds/worksheet/score_options.py)."""

from typing import Any


def scored_item(
    key: str, text: str, choices: list[str], points: list[int], **extra: Any
) -> dict[str, Any]:
    return {
        "key": key,
        "type": "single_choice",
        "text": text,
        "required": True,
        "choices": choices,
        "points": points,
        "scored": True,
        **extra,
    }


def bands(*ranges: tuple[int, int, str]) -> list[dict[str, Any]]:
    return [{"from": low, "to": high, "label": label} for low, high, label in ranges]


def subscale(key: str, label: str, items: list[str], **extra: Any) -> dict[str, Any]:
    return {"key": key, "label": label, "items": items, "multiplier": 1, **extra}
