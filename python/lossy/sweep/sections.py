"""A result section (flows, links) as columns, whatever shape the core returns it in.

The core returns `raw["flows"]` as a list of dicts (one per flow) today, and as a dict
of columns (name -> NumPy array or list of str) soon; this is the one place that knows
both. NumPy only, so a worker imports it cheaply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, List, Union

import numpy as np

Columns = Dict[str, Union[np.ndarray, List[Any]]]


def section_columns(value: Any) -> Columns:
    """A result section (flows, links) as columns, whichever shape the core returns: a
    list of dicts (one per item) or a dict of columns (name -> array or list). Nested
    tables in a list item become dotted columns (`tcp.variant`)."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return {str(k): (v if isinstance(v, np.ndarray) else list(v)) for k, v in value.items()}
    items = [_flat_item(item) for item in value]
    keys = dict.fromkeys(k for item in items for k in item)
    return {k: [item.get(k) for item in items] for k in keys}


def _flat_item(item: Any, prefix: str = "") -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in (item.items() if isinstance(item, Mapping) else []):
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(_flat_item(v, key + "."))
        elif isinstance(v, np.generic):
            out[key] = v.item()
        elif not isinstance(v, (list, tuple, np.ndarray)):  # per-item arrays are traces
            out[key] = v
    return out
