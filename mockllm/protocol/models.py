"""`Model`: the base of the response objects, with the parts of pydantic's API that openai's have.

Attribute access, `==`, `repr`, iteration over (field, value) pairs, and:

- `model_dump(mode=, include=, exclude=, exclude_unset=, exclude_defaults=, exclude_none=)`
  returns a fresh plain dict (include/exclude take sets or nested dicts, with list indexes or
  "__all__" under list fields, as in pydantic);
- `model_dump_json(indent=, ...)` the same as compact JSON (non-ASCII kept), like pydantic;
- `to_dict()` / `to_json()` as openai defines them: only the fields that were set, i.e. exactly
  what the API sends (`to_json` indents by 2);
- `model_validate(dict)`, `model_validate_json(text)`, `model_copy(update=)`, `model_fields_set`.

A field is "set" when it was given at construction or has a class default (`object`, `role`,
`index`, `type`: the API always sends those); the others read as None and are left out of
`to_dict()`, as the API leaves them out of its JSON (a streamed delta carries only what it adds).
Plain classes (fields declared as annotations, kept in the instance dict) rather than pydantic
keep `import mockllm` fast and free of dependencies.
Differences from pydantic: no type coercion or checking beyond required fields and nested
objects; unknown keys given to `model_validate` are ignored.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping

_DUMP_MODES = ("python", "json")


class Model:
    """Base of the response objects: keyword construction, attributes, dumps and validation."""

    __slots__: tuple[str, ...] = ("_given", "__dict__")
    _defaults: dict[str, object] = {}
    _nested: dict[str, tuple[type, bool]] = {}  # field -> (model class, is a list of them)
    _required: tuple[str, ...] = ()
    _fields: tuple[tuple[str, object], ...] = ()  # (name, default) of each field, set per class
    _names: frozenset[str] = frozenset()
    _template: dict[str, object] = {}  # every field at its default

    def __init_subclass__(cls, **options: object) -> None:
        """Take the class's fields from its annotations, in their order."""
        super().__init_subclass__(**options)
        cls._fields = tuple((name, cls._defaults.get(name)) for name in cls.__dict__["__annotations__"])
        cls._names = frozenset(name for name, _ in cls._fields)
        cls._template = dict(cls._fields)

    def __init__(self, **values: object) -> None:
        if not self._names.issuperset(values):
            unknown = sorted(set(values) - self._names)
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(unknown)}")
        self.__dict__ = {**self._template, **values}  # the fields, set at once
        self._given = values  # the fields that were set: these, and those with a class default

    def _is_set(self, name: str) -> bool:
        """True when field `name` was given at construction or has a class default."""
        return name in self._given or name in self._defaults

    @property
    def model_fields_set(self) -> set[str]:
        """The names of the fields that were set (given, or defaulted by the API's rules)."""
        return {name for name, _ in self._fields if self._is_set(name)}

    def model_dump(self, *, mode: str = "python", include: object = None, exclude: object = None,
                   context: object = None, by_alias: bool | None = None, exclude_unset: bool = False,
                   exclude_defaults: bool = False, exclude_none: bool = False,
                   exclude_computed_fields: bool = False, round_trip: bool = False,
                   warnings: bool | str = True, fallback: object = None,
                   serialize_as_any: bool = False) -> dict:
        """Return a plain, independent dict of the fields (pydantic's `model_dump()`)."""
        if mode not in _DUMP_MODES:
            raise ValueError(f"Invalid value for 'mode': {mode!r}. Accepted: 'python' or 'json'.")
        return self._dump(_spec(include), _spec(exclude), (exclude_unset, exclude_defaults, exclude_none))

    def model_dump_json(self, *, indent: int | None = None, ensure_ascii: bool = False,
                        include: object = None, exclude: object = None, context: object = None,
                        by_alias: bool | None = None, exclude_unset: bool = False,
                        exclude_defaults: bool = False, exclude_none: bool = False,
                        exclude_computed_fields: bool = False, round_trip: bool = False,
                        warnings: bool | str = True, fallback: object = None,
                        serialize_as_any: bool = False) -> str:
        """Return `model_dump()` as JSON: compact, or indented by `indent` (pydantic's layout)."""
        import json

        dumped = self.model_dump(include=include, exclude=exclude, exclude_unset=exclude_unset,
                                 exclude_defaults=exclude_defaults, exclude_none=exclude_none)
        separators = (",", ":") if indent is None else (",", ": ")
        return json.dumps(dumped, indent=indent, ensure_ascii=ensure_ascii, separators=separators)

    def to_dict(self, *, mode: str = "python", use_api_names: bool = True, exclude_unset: bool = True,
                exclude_defaults: bool = False, exclude_none: bool = False,
                warnings: bool = True) -> dict:
        """Return the dict the API sends (openai's `to_dict()`: only the fields that were set)."""
        return self.model_dump(mode=mode, exclude_unset=exclude_unset,
                               exclude_defaults=exclude_defaults, exclude_none=exclude_none)

    def to_json(self, *, indent: int | None = 2, use_api_names: bool = True, exclude_unset: bool = True,
                exclude_defaults: bool = False, exclude_none: bool = False,
                warnings: bool = True) -> str:
        """Return `to_dict()` as JSON indented by 2 (openai's `to_json()`)."""
        return self.model_dump_json(indent=indent, exclude_unset=exclude_unset,
                                    exclude_defaults=exclude_defaults, exclude_none=exclude_none)

    def _dump(self, include: dict | None, exclude: dict | None, flags: tuple[bool, bool, bool]) -> dict:
        """The fields as a dict, after include/exclude and the exclude_* flags."""
        skip_unset, skip_defaults, skip_none = flags
        out = {}
        for name, default in self._fields:
            if include is not None and name not in include:
                continue
            below = exclude.get(name) if exclude else None
            if below is True or (skip_unset and not self._is_set(name)):
                continue
            value = getattr(self, name)
            if (skip_none and value is None) or (skip_defaults and value == default):
                continue
            inside = include.get(name) if include else None
            out[name] = _dump(value, None if inside is True else inside, below, flags)
        return out

    @classmethod
    def model_validate(cls, obj: object, *, strict: bool | None = None, extra: object = None,
                       from_attributes: bool | None = None, context: object = None,
                       by_alias: bool | None = None, by_name: bool | None = None) -> Model:
        """Build an instance from a dict (nested dicts become the nested objects); ValueError if invalid."""
        if isinstance(obj, cls):
            return obj
        if not isinstance(obj, Mapping) and callable(getattr(obj, "model_dump", None)):
            obj = obj.model_dump(exclude_unset=True)  # openai's own object, or another model
        return cls._coerce(obj, cls.__name__)

    @classmethod
    def model_validate_json(cls, json_data: str | bytes, **options: object) -> Model:
        """Build an instance from JSON text (`model_validate` of the parsed value)."""
        import json

        try:
            parsed = json.loads(json_data)
        except (ValueError, RecursionError) as error:
            raise ValueError(f"{cls.__name__}: invalid JSON ({str(error)[:100]})") from None
        return cls.model_validate(parsed, **options)

    @classmethod
    def _coerce(cls, data: object, path: str) -> Model:
        """An instance from `data` (an instance, or a dict checked field by field)."""
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise ValueError(f"{path}: expected an object (a dict) for {cls.__name__}, "
                             f"got {type(data).__name__}")
        values = {}
        for name, _ in cls._fields:
            if name not in data:
                if name in cls._required:
                    raise ValueError(f"{path}.{name}: field required")
                continue
            values[name] = cls._field(name, data[name], f"{path}.{name}")
        return cls(**values)

    @classmethod
    def _field(cls, name: str, value: object, path: str) -> object:
        """One field's value from plain data: nested objects built, containers copied."""
        if name not in cls._nested or value is None:
            return _dump(value, None, None, (False, False, False))
        kind, many = cls._nested[name]
        if not many:
            return kind._coerce(value, path)
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"{path}: expected a list, got {type(value).__name__}")
        return [kind._coerce(item, f"{path}[{index}]") for index, item in enumerate(value)]

    def model_copy(self, *, update: Mapping[str, object] | None = None, deep: bool = False) -> Model:
        """Return a copy, with the fields in `update` replaced (pydantic's `model_copy`)."""
        values = {name: getattr(self, name) for name, _ in self._fields if self._is_set(name)}
        if deep:
            import copy

            values = copy.deepcopy(values)
        values.update(update or {})
        return type(self)(**values)

    def __iter__(self) -> Iterator[tuple[str, object]]:
        """Yield (field, value) pairs, as a pydantic model does (so `dict(model)` works)."""
        for name, _ in self._fields:
            yield name, getattr(self, name)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in self._fields)
        return f"{type(self).__name__}({fields})"


def _spec(spec: object) -> dict | None:
    """An include/exclude argument as a dict {key: True or a nested spec} (None: no restriction)."""
    if spec is None or spec is True:
        return None
    if isinstance(spec, (set, frozenset, list, tuple)):
        return dict.fromkeys(spec, True)
    if isinstance(spec, Mapping):
        return dict(spec)
    raise TypeError(f"include= and exclude= take a set of field names or a nested dict, got {spec!r:.60}")


def _pick(spec: dict | None, key: object) -> object:
    """The part of a spec that applies under `key`: its own entry, else "__all__" (None: absent)."""
    return None if spec is None else spec.get(key, spec.get("__all__"))


def _dump(value: object, include: object, exclude: object, flags: tuple[bool, bool, bool]) -> object:
    """Convert nested models, lists and dicts to fresh plain containers, honouring the specs."""
    if isinstance(value, Model):
        return value._dump(_spec(include), _spec(exclude), flags)
    if not isinstance(value, (list, tuple, dict)):
        return value
    inc, exc = _spec(include), _spec(exclude)
    pairs = enumerate(value) if not isinstance(value, dict) else value.items()
    kept = []
    for key, item in pairs:
        inside, below = _pick(inc, key), _pick(exc, key)
        if (inc is not None and inside is None) or below is True:
            continue
        kept.append((key, _dump(item, None if inside is True else inside, below, flags)))
    return dict(kept) if isinstance(value, dict) else [item for _, item in kept]
