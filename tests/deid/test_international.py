"""Identifiers as they are written outside the US, one table per class (phones, health and national
numbers, postcodes, street addresses, towns, names with a middle initial); and, for each class, the
clinical look-alikes that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.test_safe_harbor import redacted

PHONES = [
    ("Daughter: +44 20 7946 0958 (mobile)", "+44 20 7946 0958"),
    ("GP surgery on 020 7946 0958, ext 214", "020 7946 0958"),
    ("Wife on 07700 900123, please ring after 6pm", "07700 900123"),
    ("Irish GP (01) 555 1234 re referral", "(01) 555 1234"),
    ("mob 087 123 4567", "087 123 4567"),
    ("Son Rahul +91 98765 43210 wants an update", "+91 98765 43210"),
    ("contact no. 98765 43210 (son)", "98765 43210"),
    ("landline 080-2345 6789", "080-2345 6789"),
    ("NOK wife 0803 123 4567", "0803 123 4567"),
    ("+234 (0) 803 123 4567 is the brother", "+234 (0) 803 123 4567"),
    ("Desk: +41 (0)96 471 07 95", "+41 (0)96 471 07 95"),
    ("Sydney office (02) 9876 5432", "(02) 9876 5432"),
    ("Phone: 467 3395", "467 3395"),
    ("Can you call me on 9472 7916?", "9472 7916"),
    ("Mobile: 03.93.92.16.85", "03.93.92.16.85"),
    ("Tel 0161 496 0000 / 0121 496 0000", "0121 496 0000"),
]
NATIONAL_IDS = [
    ("NHS No: 943 476 5919", "943 476 5919"),
    ("NHS number 943-476-5919 confirmed", "943-476-5919"),
    ("Aadhaar 2341 2341 2346 on file", "2341 2341 2346"),
    ("ID proof 4991 1866 5246 submitted", "4991 1866 5246"),  # valid Verhoeff, no label
    ("PPSN 1234567T", "1234567T"),
    ("NI number AB 12 34 56 C", "AB 12 34 56 C"),
    ("OHIP 1234-567-897-AB", "1234-567-897-AB"),
    ("health card 1234 567 897", "1234 567 897"),
    ("BC PHN 9698 658 215", "9698 658 215"),
    ("RAMQ TREM 8501 1512", "TREM 8501 1512"),
    ("SIN 046 454 286", "046 454 286"),
    ("Medicare 2123 45670 1/1", "2123 45670 1/1"),
    ("UHID: 20230045817, for CT", "20230045817"),
    ("IP No. 4521/23 admitted", "4521/23"),
    ("folder number 22/1043", "22/1043"),
]
POSTCODES = [
    ("Manchester M20 6RT", "M20 6RT"),
    ("postcode BS8 1TH", "BS8 1TH"),
    ("lives at 5 high st, bath, ba1 1aa with wife", "ba1 1aa"),
    ("Toronto, ON M5V 3L9", "M5V 3L9"),
    ("Dublin D02 X285", "D02 X285"),
    ("Eircode A65 F4E2", "A65 F4E2"),
    ("Bengaluru - 560034", "560034"),
    ("Mumbai 400 001", "400 001"),
    ("Sydney NSW 2000", "2000"),
]
ADDRESSES = [
    ("Address: Flat 3, 22 Acacia Avenue, Kilburn, London NW6 2AB", "Flat 3, 22 Acacia Avenue, Kilburn"),
    ("No. 12, 4th Cross, Malleswaram, Bengaluru 560003", "4th Cross, Malleswaram"),
    (
        "Plot 1234, Adeola Odeku Street, Victoria Island, Lagos",
        "Plot 1234, Adeola Odeku Street, Victoria Island",
    ),
    ("H.No. 4-1-123, Gandhi Nagar, Hyderabad", "H.No. 4-1-123, Gandhi Nagar"),
    ("Lives at 5 Rose Gardens, Didsbury with her daughter", "5 Rose Gardens"),
    ("22 Acacia Avenue\nKilburn\nLondon NW6 2AB", "Kilburn"),
    ("Address: 5 Awolowo Road, Ikoyi, Lagos  Tel: 0803 123 4567", "5 Awolowo Road, Ikoyi, Lagos"),
    ("House no. 7, Sector 21, Gurugram", "Sector 21"),
    ("lives at 1234, rue Sainte-Catherine Ouest, Montréal", "1234, rue Sainte-Catherine Ouest"),
    ("Hauptstraße 12, 10115 Berlin", "Hauptstraße 12"),
    ("PSC 0413, Box 8144, APO AA 42323", "PSC 0413, Box 8144, APO AA 42323"),
    ("Unit 4719 Box 7394 DPO AP 70942", "Unit 4719 Box 7394 DPO AP 70942"),
    ("Apt. 864 and Suite 282", "Suite 282"),
]
TOWNS = [
    ("transferred from Didsbury this am", "Didsbury"),
    ("lives in Enugu with her son", "Enugu"),
    ("moved to Bangalore in 2019", "Bangalore"),
    ("from Kilkenny, here on holiday", "Kilkenny"),
    ("home in Moose Jaw, Saskatchewan", "Moose Jaw"),
]
NAMES = [
    ("Janka M. Szász was seen today", "Janka M. Szász"),
    ("we need to add Ryan P Costa as guardian", "Ryan P Costa"),
]
CASES = [
    pytest.param(text, phi, id=f"{group}-{i}")
    for group, table in (
        ("phone", PHONES),
        ("national-id", NATIONAL_IDS),
        ("postcode", POSTCODES),
        ("address", ADDRESSES),
        ("town", TOWNS),
        ("name", NAMES),
    )
    for i, (text, phi) in enumerate(table)
]


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_international_identifier_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert redacted(deid, text, phi), deid.deidentify(text).text


KEEP = [
    # numbers that are not phones: clock times, dates, labs, vitals
    ("meds given at 0600 1200 1800 2200", "0600 1200 1800 2200"),
    ("pH 7.35, pCO2 40, Na 135, K 4.1", "pH 7.35"),
    ("BP 120/80 HR 72 RR 18 T 36.8, plt 150 000", "HR 72 RR 18"),
    ("norco rx 10/325 1 tab", "10/325"),
    # shapes of postcodes and health numbers that are clinical
    ("G2P1A0 at 39 weeks", "G2P1A0"),
    ("spinal levels L4-L5, T2DM, B12 1000 mcg, CD4 200", "B12 1000 mcg"),
    ("T12 fracture, T12 2018 imaging", "T12 fracture"),
    ("HR 72 80 90 a fib", "HR 72 80 90"),
    # words of an address that are also clinical or ordinary English
    ("troponin 3 fold rise, walked 2 flights uphill", "3 fold rise"),
    ("100 000 colony forming units", "colony"),
    ("2 tabs po dr, 40 mg iv push st, flat 3 days", "flat 3 days"),
    ("ECG: T waves flat 3 leads", "flat 3 leads"),
    ("ring finger, Ring 2, via IV line", "via IV"),
    ("Issues to address: 1. Pain", "1. Pain"),
    # town names that are abbreviations or words in a note
    ("OSA not on CPAP, LAE on echo, MoCA 26/30, TIMI 3", "MoCA"),
    ("Secondary: tobacco use (1 ppd), OSA not on CPAP", "OSA"),
    ("Wound VAC applied at 125 mmHg", "VAC"),
    ("Fell in the bath, reading glasses broken", "bath"),
    ("Taken to theatre; back to the ward via recovery", "theatre"),
    # clinical phrases shaped like a name with a middle initial
    ("Hepatitis B Surface antigen neg, Factor V Leiden", "Hepatitis B Surface"),
    ("Group A Strep, Vitamin D Deficiency, Type B Dissection", "Vitamin D Deficiency"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_international_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    out = deid.deidentify(text).text
    assert term in out, out
