"""Each exercise kind's response is in the schema, read from its own form."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from homework.api.responses import kind_response_schema
from homework.kinds import all_kinds, get_kind


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_every_kind_is_a_component_and_an_entrys_response_is_any_of_them(schema):
    components = schema["components"]["schemas"]
    names = {
        kind.slug: "".join(p.capitalize() for p in kind.slug.split("_")) for kind in all_kinds()
    }
    for slug, name in names.items():
        assert components[f"{name}Response"] == kind_response_schema(get_kind(slug))
    refs = components["EntryIn"]["properties"]["response"]["anyOf"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in refs} == {
        f"{n}Response" for n in names.values()
    }


def test_a_kinds_schema_follows_its_forms_fields_and_rows():
    record = kind_response_schema(get_kind("written_record"))
    assert record["properties"]["body_distress"]["anyOf"][0] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 10,
    }
    ladder = kind_response_schema(get_kind("boundary_steps"))
    assert ladder["properties"]["steps"]["type"] == "array"


def test_the_token_routes_refusals_are_documented_in_the_error_shape(schema):
    responses = schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]
    error = {"$ref": "#/components/schemas/ErrorOut"}
    for status in ("400", "429"):
        assert responses[status]["content"]["application/json"]["schema"] == error
    assert "Retry-After" in responses["429"]["headers"]
    assert set(schema["components"]["schemas"]["ErrorOut"]["properties"]) == {
        "code",
        "detail",
        "errors",
    }
