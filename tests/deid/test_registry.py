"""The recognizer registry holds every recognizer class once: two classes of one name (in two
modules) would let the later import shadow the earlier in deid.recognizers, and a whole class of
PHI would silently stop being found."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict

from presidio_analyzer import EntityRecognizer

import deid.recognizers
from deid.lexicon import Lexicon
from deid.recognizers import build_recognizers


def _recognizer_classes() -> dict[str, list[str]]:
    """Concrete recognizer classes defined in deid.recognizers' modules: name -> defining modules."""
    found: dict[str, list[str]] = defaultdict(list)
    for info in pkgutil.iter_modules(deid.recognizers.__path__):
        module = importlib.import_module(f"deid.recognizers.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, EntityRecognizer) and cls.__module__ == module.__name__:
                found[name].append(module.__name__)
    return found


def test_no_two_recognizer_classes_share_a_name() -> None:
    shared = {name: modules for name, modules in _recognizer_classes().items() if len(modules) > 1}
    assert not shared, shared


def test_each_built_recognizer_is_a_distinct_class() -> None:
    built = [type(r) for r in build_recognizers(Lexicon.load())]
    assert len(built) == len(set(built))
    assert len({cls.__name__ for cls in built}) == len(built)
