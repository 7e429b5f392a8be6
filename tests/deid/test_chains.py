"""Chains and health systems named without a head word (deid/data/chains.txt, from OpenStreetMap's
name-suggestion-index): the pharmacy, the urgent care, the employer of a note; and the clinical
words, eponyms and towns that share a chain's name and must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted

CHAINS = [
    ("Rx refill request by fax from Walgreens #04417, 1021 Belmont St", "Walgreens"),
    ("BP check today at Walgreens. Pt ok w/ plan", "Walgreens"),
    ("Usual pharmacy was the Rite Aid on Broadway, which closed.", "Rite Aid"),
    ("did he start the bactrim from MinuteClinic? yes started", "MinuteClinic"),
    ("amlodipine increased to 10 mg at a CVS MinuteClinic last month", "CVS MinuteClinic"),
    ("works nights at QuikTrip on Harvard; neighbor checks in", "QuikTrip"),
    ("Works part-time at Food Lion (stocking, nights).", "Food Lion"),
    ("my boss at H-E-B distribution center needs a note", "H-E-B"),
    ("Going to Family Dollar then to church", "Family Dollar"),
    ("PRENATAL CARE AT PLANNED PARENTHOOD THEN OB-GYN ASSOCIATES", "PLANNED PARENTHOOD"),
    ("Follows at OhioHealth sickle cell clinic.", "OhioHealth"),
    ("XR LEFT WRIST, 3 VIEWS Kaiser Permanente Roseville", "Kaiser Permanente"),
    ("can someone call mrs tran's pharmacy bartell drugs re warfarin", "bartell drugs"),
    ("compare the ECG from CityMD on 11/2 with today's", "CityMD"),
    # in a lower-case note, a name that is also a word with a store's words or a street after it
    ("old bottle of metoprolol from cvs on london rd (rx #4471920)", "cvs"),
    ("husband drove her, works nights at the target distribution center in brooklyn park", "target"),
    ("draft a letter to walmart hr that pt can return to work", "walmart"),
]


@pytest.mark.parametrize(("text", "phi"), CHAINS)
def test_chain_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # a clinical word, an eponym or a scale named like a chain ("Buckle", "Foley", "Columbia")
    ("Findings: Buckle (torus) fracture of the distal radial metaphysis.", "Buckle"),
    ("failed voiding trial, discharged with Foley for outpatient trial", "Foley"),
    ("PHQ-9 24 -> 11. Columbia (C-SSRS) at discharge: no SI", "Columbia"),
    # chains named by ordinary words need a place cue
    ("Lucid and oriented x3, subdued affect. Icing the ankle.", "Lucid"),
    ("Lucid and oriented x3, Subdued affect.", "Subdued"),
    ("pt lucid, calm; icing knee", "icing"),
    # in lower case a cue before such a name is not enough, nor a bracket or a street after a common word
    ("pt with progressive dyspnea x3d, unable to express needs", "progressive"),
    ("referred to target lesion; plan to block the nerve", "target"),
    ("met with wife at home (riverside apts); walks around the block on fernwood ave", "at home"),
    ("walks around the block on fernwood ave", "block"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
