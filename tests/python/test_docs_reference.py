"""The scenario reference (docs/gen/gen_scenario_reference.py) names every field the core
accepts, in the section of the table it belongs to, so the page cannot drift from
`lossy schema`."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

from lossy import _core

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "docs" / "gen" / "gen_scenario_reference.py"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_scenario_reference", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def page():
    gen = _generator()
    schema = json.loads(_core.schema())
    return gen, schema, gen.render(schema)


def _sections(text):
    """Heading id -> the text up to the next heading of level 2 or 3."""
    out = {}
    parts = re.split(r"^#{2,3} .*\{#([a-z0-9-]+)\}$", text, flags=re.M)
    for i in range(1, len(parts), 2):
        out[parts[i]] = parts[i + 1]
    return out


def _objects(gen, schema):
    """(section id, object schema, tag field) for the root, every object definition and
    every tagged variant."""
    yield gen.anchor(gen.ROOT), schema, None
    for name, node in schema["$defs"].items():
        if "properties" in node:
            yield gen.anchor(name), node, None
        for variant in node.get("oneOf", []):
            tag = gen.tag_of(variant)
            if tag is not None:
                yield gen.anchor(f"{name}-{tag[1]}"), variant, tag[0]


def test_every_property_is_in_its_section(page):
    gen, schema, text = page
    sections = _sections(text)
    missing = []
    checked = 0
    for section_id, node, tag in _objects(gen, schema):
        if section_id not in sections:
            missing.append(f"section #{section_id}")
            continue
        body = sections[section_id]
        for prop in node.get("properties", {}):
            if prop == tag:
                continue
            checked += 1
            if not re.search(rf"^\| {re.escape(gen.field_name(prop))} \|", body, flags=re.M):
                missing.append(f"#{section_id}: {prop}")
    assert checked > 50, "the schema walk found too few fields"
    assert not missing, "not in the scenario reference: " + ", ".join(missing)


def test_every_variant_enum_and_unit_is_listed(page):
    gen, schema, text = page
    for name, node in schema["$defs"].items():
        assert f"{{#{gen.anchor(name)}}}" in text, f"no section for {name}"
        for option in node.get("oneOf", []):
            value = option.get("const") or (gen.tag_of(option) or (None, None))[1]
            if value is not None:
                assert f'"{value}"' in text, f"{name}: {value} not listed"
    for name in gen.UNIT_TYPES:
        for unit in gen.units_of(schema["$defs"][name]):
            assert f"`{unit}`" in text, f"unit {unit} of {name} not listed"


def test_defaults_and_ranges_are_shown(page):
    _, _, text = page
    assert '| <code style="white-space: nowrap">duration</code> | [duration](#def-duration) | `"100 s"` |' in text
    assert re.search(r'^\| <code[^>]*>p</code> \| number \| required \| 0 to 1 \|', text, flags=re.M)
    assert "1 to 1,000,000" in text
