"""reference/scenario.md: every scenario field, from the core's JSON Schema.

The schema is `lossy._core.schema()` (what `lossy schema` prints), so the page lists
exactly the fields the core accepts. Each object definition becomes a section with a
table of its fields (type, default, allowed values, description); a definition chosen
by a tag (`model`, `kind`) becomes one subsection per variant; the unit types
(durations, rates, sizes, queue limits) get their own section with the units they
accept, read from the schema's patterns. `render(schema)` is the whole page, so the
test can check it without building the site.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Tuple

PAGE = "reference/scenario.md"
ROOT = "Scenario"

# Definitions whose values are a number with a unit, written as text: the unit each
# stands for, and the base unit of a bare number.
UNIT_TYPES = {
    "Duration": ("duration", "s"),
    "Rate": ("rate", "b/s"),
    "Bytes": ("size", "B"),
    "QueueLimit": ("queue limit", "packets"),
}
TAGS = ("kind", "model")


def write() -> None:
    import mkdocs_gen_files

    from lossy import _core

    with mkdocs_gen_files.open(PAGE, "w") as f:
        f.write(render(json.loads(_core.schema())))


# ---------------------------------------------------------------------------- helpers


def anchor(name: str) -> str:
    """The heading id of a definition's section (set explicitly, so links are stable)."""
    return "def-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def ref_name(node: Dict[str, Any]) -> Optional[str]:
    ref = node.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def literal(value: Any) -> str:
    if isinstance(value, str):
        return f'`"{value}"`'
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, (dict, list)) and not value:
        return "`{}`" if isinstance(value, dict) else "`[]`"
    if isinstance(value, dict):
        return "`{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }`"
    return f"`{toml_value(value)}`"


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if value is None:
        return "unset"
    return str(value)


def tag_of(variant: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """(tag field, value) of a tagged variant, e.g. ("model", "bernoulli")."""
    props = variant.get("properties", {})
    for tag in TAGS:
        const = props.get(tag, {}).get("const")
        if isinstance(const, str):
            return tag, const
    return None


def is_enum(node: Dict[str, Any]) -> bool:
    """A choice among strings: `oneOf` of string constants (e.g. the TCP variants)."""
    options = node.get("oneOf")
    return bool(options) and all("const" in o and o.get("type") == "string" for o in options)


def describe_type(node: Dict[str, Any], defs: Dict[str, Any]) -> str:
    """A short type, with a link to the section of any definition it names."""
    name = ref_name(node)
    if name is not None:
        if name in UNIT_TYPES:
            return f"[{UNIT_TYPES[name][0]}](#{anchor(name)})"
        return f"[{name}](#{anchor(name)})"
    for key in ("anyOf", "oneOf"):
        if key in node:
            options = [o for o in node[key] if o.get("type") != "null"]
            nullable = len(options) < len(node[key])
            if "const" in node and len(options) == 0:
                break
            if all("const" in o for o in options) and options:
                text = " or ".join(literal(o["const"]) for o in options)
            elif all("enum" in o for o in options) and options:
                text = " or ".join(literal(v) for o in options for v in o["enum"])
            else:
                text = " or ".join(describe_type(o, defs) for o in options)
            return text + (" or unset" if nullable else "")
    if "const" in node:
        return literal(node["const"])
    if "enum" in node:
        return " or ".join(literal(v) for v in node["enum"])
    kind = node.get("type")
    nullable = False
    if isinstance(kind, list):
        nullable = "null" in kind
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else " or ".join(kinds)
    if kind == "array":
        items = describe_type(node.get("items", {}), defs)
        lo, hi = node.get("minItems"), node.get("maxItems")
        text = f"list of {items}" if lo is None or lo != hi else f"{lo} × {items}"
    elif kind == "integer":
        text = "integer"
    elif kind == "number":
        text = "number"
    elif kind == "boolean":
        text = "boolean"
    elif kind == "string":
        text = "string"
    elif kind == "object":
        text = "table"
    else:
        text = str(kind or "any")
    return text + (" or unset" if nullable else "")


def allowed(node: Dict[str, Any], defs: Dict[str, Any]) -> str:
    """Ranges and choices the schema states for one field."""
    parts: List[str] = []
    target = node
    name = ref_name(node)
    if name is not None and name not in UNIT_TYPES:
        target = defs.get(name, {})
        if is_enum(target):
            parts.append(", ".join(literal(o["const"]) for o in target["oneOf"]))
    lo, hi = target.get("minimum"), target.get("maximum")
    if lo is not None and hi is not None:
        parts.append(f"{number(lo)} to {number(hi)}")
    elif lo is not None and not (lo == 0 and target.get("format", "").startswith("uint")):
        parts.append(f"≥ {number(lo)}")
    elif hi is not None:
        parts.append(f"≤ {number(hi)}")
    if "enum" in target:
        parts.append(", ".join(literal(v) for v in target["enum"]))
    if name in UNIT_TYPES:
        parts.append(unit_example(defs[name], name))
    items = target.get("items")
    if isinstance(items, dict) and ref_name(items) in UNIT_TYPES:
        parts.append("each " + unit_example(defs[ref_name(items)], ref_name(items)))  # type: ignore[index]
    return "; ".join(p for p in parts if p)


def unit_example(node: Dict[str, Any], name: str) -> str:
    """`e.g. "5 ms" (a bare number: s)`: the schema's example and the base unit."""
    match = re.search(r'e\.g\. ("[^"]+")', node.get("description", ""))
    example = f"e.g. `{match.group(1)}` " if match else ""
    return f"{example}(a bare number: {UNIT_TYPES[name][1]})"


def units_of(node: Dict[str, Any]) -> List[str]:
    """The unit words a unit type's pattern accepts, e.g. ["s", "ms", ...]."""
    for option in node.get("anyOf", []):
        pattern = option.get("pattern")
        if pattern:
            match = re.search(r"\(([^()]*)\)\?", pattern)
            if match:
                return match.group(1).split("|")
    return []


def default_of(prop: Dict[str, Any]) -> str:
    """The default, or a link to the table's own section when it is a whole table."""
    if "default" not in prop:
        return "unset"
    value = prop["default"]
    target = ref_name(prop)
    if isinstance(value, dict) and len(value) > 2 and target is not None:
        return f"each field's default, see [{target}](#{anchor(target)})"
    return literal(value)


def number(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def sentence(text: str) -> str:
    text = one_line(text).replace("\\|", "|")
    return text[:1].upper() + text[1:] if text else text


def field_name(name: str) -> str:
    """A field's name as code that the theme does not break across lines."""
    return f'<code style="white-space: nowrap">{name}</code>'


def field_rows(obj: Dict[str, Any], defs: Dict[str, Any], skip: Tuple[str, ...] = ()) -> List[str]:
    required = set(obj.get("required", []))
    rows = ["| Field | Type | Default | Allowed | Description |", "| --- | --- | --- | --- | --- |"]
    for name, prop in obj.get("properties", {}).items():
        if name in skip:
            continue
        default = "required" if name in required else default_of(prop)
        desc = prop.get("description") or ""
        target = ref_name(prop)
        if not desc and target is not None and target not in UNIT_TYPES:
            desc = defs.get(target, {}).get("description", "")
        rows.append(
            f"| {field_name(name)} | {describe_type(prop, defs)} | {default} | {allowed(prop, defs)} | {one_line(desc)} |"
        )
    return rows


# ---------------------------------------------------------------------------- sections


def order_of(schema: Dict[str, Any]) -> List[str]:
    """Definitions in the order a reader meets them: depth first from the root fields."""
    defs = schema.get("$defs", {})
    seen: List[str] = []

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            name = ref_name(node)
            if name is not None and name in defs and name not in seen:
                seen.append(name)
                visit(defs[name])
            for key, value in node.items():
                if key != "$ref":
                    visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(schema.get("properties", {}))
    return [n for n in seen if n not in UNIT_TYPES] + [n for n in defs if n not in seen and n not in UNIT_TYPES]


def section(name: str, node: Dict[str, Any], defs: Dict[str, Any]) -> List[str]:
    out = [f"## {name} {{#{anchor(name)}}}", ""]
    if node.get("description"):
        out += [sentence(node["description"]), ""]
    if is_enum(node):
        out += ["| Value | Meaning |", "| --- | --- |"]
        out += [f"| {literal(o['const'])} | {one_line(o.get('description', ''))} |" for o in node["oneOf"]]
        return out + [""]
    variants = node.get("oneOf")
    if variants:
        for variant in variants:
            tag = tag_of(variant)
            if tag is None:
                out += field_rows(variant, defs) + [""]
                continue
            out += [f"### `{tag[0]} = \"{tag[1]}\"` {{#{anchor(name + '-' + tag[1])}}}", ""]
            if variant.get("description"):
                out += [sentence(variant["description"]), ""]
            if [p for p in variant.get("properties", {}) if p != tag[0]]:
                out += field_rows(variant, defs, skip=(tag[0],)) + [""]
            else:
                out += ["No other fields.", ""]
        return out
    if "anyOf" in node:
        out += ["One of: " + ", ".join(describe_type(o, defs) for o in node["anyOf"]) + ".", ""]
        return out
    if "properties" in node:
        out += field_rows(node, defs) + [""]
        return out
    out += [f"Type: {describe_type(node, defs)}. {allowed(node, defs)}", ""]
    return out


def units_section(defs: Dict[str, Any]) -> List[str]:
    out = [
        "## Units {#units}",
        "",
        "Durations, rates, sizes and queue limits are written as text with a unit, "
        '`"5 ms"`, `"2 Mbps"`, `"1000 B"`, `"100 packets"`; a bare number is in the base '
        "unit. Decimal prefixes are powers of 1000 (`KB` = 1000 B), binary ones powers of "
        "1024 (`KiB` = 1024 B). In a size, `b`, `bit` and `bits` are bits (8 bits = 1 B); "
        "a rate is in bits per second (`\"2 Mbps\"` is 2,000,000 b/s).",
        "",
    ]
    for name, (what, base) in UNIT_TYPES.items():
        if name not in defs:
            continue
        node = defs[name]
        units = ", ".join(f"`{u}`" for u in units_of(node))
        out += [
            f"### {what.capitalize()} {{#{anchor(name)}}}",
            "",
            f"{sentence(node.get('description', ''))}. A bare number is in {base}. "
            f"Units: {units}.",
            "",
        ]
    return out


def render(schema: Dict[str, Any]) -> str:
    defs = schema.get("$defs", {})
    lines = [
        "# Scenario reference",
        "",
        "<!-- Generated by docs/gen/gen_scenario_reference.py from `lossy schema`; do not edit. -->",
        "",
        "Every field a scenario file accepts, generated from the JSON Schema the Rust core "
        "validates against (`lossy schema` prints it), so this page cannot drift from the "
        "simulator. A field marked *required* must be given; the others take the default "
        "shown. An unknown field or a value out of range is an error that names its path, "
        "e.g. ``lossy: links.0.rat: unknown field `rat`; use one of: between, rate, ...``. The [scenarios guide](../guide/scenarios.md) "
        "explains how the parts fit together, with examples.",
        "",
        f"## {ROOT} {{#{anchor(ROOT)}}}",
        "",
        one_line(schema.get("description", "The top level of a scenario file.")),
        "",
    ]
    lines += field_rows(schema, defs) + [""]
    for name in order_of(schema):
        lines += section(name, defs[name], defs)
    lines += units_section(defs)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":  # python docs/gen/gen_scenario_reference.py > scenario.md
    from lossy import _core

    print(render(json.loads(_core.schema())), end="")
