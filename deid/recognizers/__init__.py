"""deid's recognizers: one small class per kind of PHI, collected here."""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer

from deid.lexicon import Lexicon
from deid.recognizers.ages import AgeRecognizer
from deid.recognizers.contact import EmailRecognizer, IpRecognizer, PhoneRecognizer, UrlRecognizer
from deid.recognizers.dates import DateRecognizer
from deid.recognizers.facilities import FacilityRecognizer, LabelledPlaceRecognizer, WardRecognizer
from deid.recognizers.identifiers import (
    LabelledIdRecognizer,
    SsnRecognizer,
    UniqueCodeRecognizer,
    VinRecognizer,
)
from deid.recognizers.locations import (
    CityStateRecognizer,
    PlaceContextRecognizer,
    RoomBedRecognizer,
    StreetAddressRecognizer,
    TownRecognizer,
    ZipCodeRecognizer,
)
from deid.recognizers.name_shapes import (
    DictionaryNameRecognizer,
    InitialsSignatureRecognizer,
    NicknameRecognizer,
)
from deid.recognizers.names import ContextNameRecognizer
from deid.recognizers.ner import SpacyNerRecognizer

RECOGNIZER_CLASSES = (
    ContextNameRecognizer,
    DictionaryNameRecognizer,
    NicknameRecognizer,
    InitialsSignatureRecognizer,
    SpacyNerRecognizer,
    DateRecognizer,
    AgeRecognizer,
    PhoneRecognizer,
    EmailRecognizer,
    UrlRecognizer,
    IpRecognizer,
    SsnRecognizer,
    LabelledIdRecognizer,
    VinRecognizer,
    UniqueCodeRecognizer,
    StreetAddressRecognizer,
    ZipCodeRecognizer,
    CityStateRecognizer,
    FacilityRecognizer,
    LabelledPlaceRecognizer,
    WardRecognizer,
    TownRecognizer,
    RoomBedRecognizer,
    PlaceContextRecognizer,
)


def build_recognizers(lexicon: Lexicon) -> list[EntityRecognizer]:
    return [cls(lexicon) for cls in RECOGNIZER_CLASSES]
