"""The response schema is read from each kind's portal form, so a new kind needs no API code.
A draft keeps answers as sent, so a number or a date may come back as text; the schema says so."""

from typing import TYPE_CHECKING, Any

from django import forms
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import serializers

from homework.kinds import ExerciseKind, all_kinds

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema

Schema = dict[str, Any]

AS_TYPED = {"type": "string", "description": "In a draft: as it was typed."}


def _text(field: forms.Field) -> str:
    return str(field.label or "")


def _choices(field: forms.ChoiceField) -> list[tuple[Any, Any]]:
    return list(field.choices)  # type: ignore[arg-type]  # a kind's choices are always a list


def field_schema(field: forms.Field) -> Schema:
    schema: Schema
    if isinstance(field, forms.BooleanField):
        schema = {"type": "boolean"}
    elif isinstance(field, forms.MultipleChoiceField):
        choices = [str(value) for value, _label in _choices(field)]
        schema = {
            "type": "array",
            "items": {"type": "string"},
            "description": f"Any of: {', '.join(choices)}.",
        }
    elif isinstance(field, forms.ChoiceField):
        choices = [str(value) for value, _label in _choices(field) if value != ""]
        schema = {"type": "string", "description": f"One of: {', '.join(choices)}."}
    elif isinstance(field, forms.IntegerField | forms.FloatField | forms.DecimalField):
        number: Schema = {"type": "integer" if isinstance(field, forms.IntegerField) else "number"}
        if field.min_value is not None:
            number["minimum"] = field.min_value
        if field.max_value is not None:
            number["maximum"] = field.max_value
        schema = {"anyOf": [number, AS_TYPED]}
    elif isinstance(field, forms.DateTimeField):
        schema = {"anyOf": [{"type": "string", "format": "date-time"}, AS_TYPED]}
    elif isinstance(field, forms.DateField):
        schema = {"anyOf": [{"type": "string", "format": "date"}, AS_TYPED]}
    elif isinstance(field, forms.CharField):
        schema = {"type": "string"}
        if field.max_length:
            schema["maxLength"] = field.max_length
    else:
        schema = {}
    if label := _text(field):
        schema["title"] = label[:200]
    return schema


def _object_schema(fields: dict[str, forms.Field], *, needed: bool) -> Schema:
    schema: Schema = {
        "type": "object",
        "properties": {name: field_schema(field) for name, field in fields.items()},
    }
    required = [name for name, field in fields.items() if field.required]
    if needed and required:
        schema["description"] = "Needed to send: " + ", ".join(required) + "."
    return schema


def kind_response_schema(kind: ExerciseKind) -> Schema:
    form_class = kind.form_class
    schema = _object_schema(dict(form_class.base_fields), needed=True)
    for name, spec in form_class.row_specs.items():
        schema["properties"][name] = {
            "type": "array",
            "maxItems": spec.max_rows,
            "items": _object_schema(spec.fields(), needed=False),
            "title": str(spec.legend)[:200],
        }
    if not schema["properties"]:
        schema["additionalProperties"] = True
        schema["description"] = "Answers keyed by the exercise's own question keys (its options)."
    schema["title"] = str(kind.label)
    return schema


def _component_name(kind: ExerciseKind) -> str:
    return "".join(part.capitalize() for part in kind.slug.split("_")) + "Response"


class KindResponseField(serializers.JSONField):
    """The service checks it against the entry's own exercise; here it only has to be an object."""

    default_error_messages = {"not_an_object": "Send the answers as an object."}

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            self.fail("not_an_object")
        return super().to_internal_value(data)


class KindResponseFieldExtension(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """Each kind a component of its own; ``response`` is any of them."""

    target_class = KindResponseField

    def map_serializer_field(self, auto_schema: "AutoSchema", direction: str) -> Schema:
        refs = []
        for kind in all_kinds():
            component = ResolvedComponent(  # type: ignore[no-untyped-call]
                name=_component_name(kind),
                type=ResolvedComponent.SCHEMA,
                object=kind.slug,
                schema=kind_response_schema(kind),
            )
            auto_schema.registry.register_on_missing(component)
            refs.append(component.ref)
        return {
            "anyOf": refs,
            "description": "The answers, shaped by the exercise's kind (its `kind`).",
        }
