"""The nine-player board: the standard board (maps/standard.py) extended south and east.

Europe is the standard drawing, taken from maps/standard.py and patched here
where the variant changes it (see docs/variants/nine-man.md): North Africa gives
way to Morocco and Algeria; Corsica and Crete become spaces; the Levant is split
into Alexandretta, Syria, Lebanon and Jordan; Armenia runs up the Black Sea's
east coast to the Don; the Volga Canal, the Caspian, Central Asia, Persia,
Arabia, the Red Sea, the Sahara, Egypt, Ethiopia and the southern oceans are
added; the Off Board Box is drawn below the board.

Points are "lon,lat"; "!lon,lat" snaps onto the nearest edge of the board;
"@x,y" are board units (used for the Off Board Box, which lies outside the map).

Three places where spaces adjacent in the variant meet only at a point:
- the Strait of Gibraltar: Spain and Morocco touch (armies cross), and the
  Mid-Atlantic, the South Atlantic and the Western Mediterranean all meet there;
- south of Crete: the Ionian and the Eastern Mediterranean meet at Crete's
  southern cape, where the South Mediterranean touches Crete;
- under the Volga Canal: Sevastopol, Moscow, Armenia and Georgia meet at one
  point on the canal, which is drawn over them (an overlay).
"""

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_standard_map", Path(__file__).with_name("standard.py"))
_std = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_std)

BOARD_W, BOARD_H = 1600, 1100
CANVAS = (1600, 1150)   # the Off Board Box is drawn in the strip below the board

PROJECTION = {
    "n": 0.35, "lon0": 18.0, "lat_true": 45.0,
    "width": BOARD_W, "height": BOARD_H,
    "left": (-33.0, 25.0), "right": (66.0, 30.0), "top": (18.0, 73.3), "bottom": (18.0, 7.0),
    "stretch_x": [(790.0, 330.0, 1.2)],
    "stretch_y": [(430.0, 230.0, 1.8), (650.0, 120.0, 0.8)],
    "zooms": [(6.5, 52.0, 0.3, 100.0), (-4.5, 54.0, 0.55, 0.25, 120.0), (16.0, 40.5, 0.25, 80.0),
              (36.0, 33.5, 0.6, 70.0), (9.0, 42.2, 0.4, 40.0), (24.9, 35.2, 0.4, 50.0)],
}


# ------------------------------------------------------------------ patching the standard drawing

def _table(text: str) -> list[list[str]]:
    out = []
    for line in text.strip().splitlines():
        code = line.split("#", 1)[0].strip()
        if code:
            out.append(code.split(None, 1) if ":" not in code else [code])
    return out


_junctions = {name: tok for name, tok in _table(_std.JUNCTIONS)}
_borders = [row[0] for row in _table(_std.BORDERS)]


def _drop_junctions(*names: str) -> None:
    for n in names:
        del _junctions[n]


def _drop_border(head: str, start: str | None = None) -> None:
    """Remove the border 'A B: start ...' (the one starting at `start` if there are several)."""
    hits = [b for b in _borders if b.split(":")[0].strip() == head
            and (start is None or b.split(":")[1].split()[0] == start)]
    assert len(hits) == 1, (head, start, hits)
    _borders.remove(hits[0])


def _replace_border(head: str, body: str, start: str | None = None) -> None:
    _drop_border(head, start)
    _borders.append(f"{head}: {body}")


# the standard frame goes; the new one is drawn below
for _b in [b for b in _borders if " OUT:" in b]:
    _borders.remove(_b)
_drop_junctions(*[n for n in _junctions if n.startswith("f_")])

# North Africa and the Strait of Gibraltar
_drop_junctions("naf_mao_wes", "spa_mao_wes", "naf_tun_wes")
for _h in ("NAF MAO", "NAF WES", "NAF TUN", "MAO WES"):
    _drop_border(_h)
_replace_border("SPA WES", "spa_lyo_wes 0.0,39.9 -0.3,39.45 0.2,38.75 -0.5,38.35 -0.7,37.65 -0.95,37.6 -1.6,37.3 "
                "-2.2,36.73 -2.45,36.83 -3.0,36.75 -4.4,36.7 -5.35,36.15 gib")
_replace_border("SPA MAO", "gib -6.0,36.25 -6.3,36.5 -6.4,36.8 -7.0,37.2 spa_por_mao_s", start="spa_mao_wes")

# Corsica becomes a space
_drop_junctions("lyo_wes_tys")
_replace_border("LYO WES", "spa_lyo_wes 4.0,40.0 7.0,41.2 cor_lyo_wms")
_replace_border("LYO TYS", "cor_lyo_tys tus_lyo_tys")
_replace_border("WES TYS", "cor_tys_wms 9.2,41.25 9.5,38.3 tun_wes_tys")
_replace_border("TUN WES", "alg_tun_wms 8.75,36.95 9.85,37.3 tun_wes_tys")

# Crete becomes a space; the South Mediterranean comes in off Africa
_drop_junctions("aeg_ion_eas")
_drop_border("ION EAS")
_replace_border("ION AEG", "gre_aeg_ion cre_aeg_ion")
_replace_border("AEG EAS", "cre_aeg_eas 28.0,36.2 smy_aeg_eas")
_replace_border("TUN ION", "tun_tys_ion 10.6,36.4 10.8,35.8 tun_ion_sms")

# the Levant
_drop_junctions("smy_syr_arm", "smy_syr_eas")
for _h in ("ARM SYR", "SMY SYR", "SYR EAS", "ARM SMY"):
    _drop_border(_h)
_replace_border("SMY EAS", "smy_aeg_eas 29.1,36.6 29.7,36.2 30.5,36.3 30.7,36.9 31.8,36.6 32.8,36.05 33.8,36.2 "
                "34.6,36.8 smy_ale_eas")

# the Black Sea's east coast goes to Armenia, up to the Don; the Volga Canal
_drop_junctions("arm_sev_bla")
for _h in ("ARM SEV", "MOS SEV"):
    _drop_border(_h)
_replace_border("ARM BLA", "ank_arm_bla 38.3,40.95 39.7,41.0 40.8,41.2 41.6,41.8 41.65,42.15 41.0,43.0 39.7,43.6 "
                "38.5,44.3 37.8,44.7 37.0,45.05 36.85,45.2 37.2,45.35 37.7,45.7 38.1,46.3 38.5,46.7 38.95,46.95 don")
_replace_border("SEV BLA", "don 38.7,47.2 38.3,47.1 37.3,47.0 36.2,46.7 35.3,46.35 34.95,46.1 35.2,45.75 35.45,45.35 "
                "36.0,45.45 36.45,45.4 36.4,45.2 35.4,45.05 34.4,44.55 33.5,44.55 33.4,45.2 32.5,45.4 33.3,45.8 "
                "33.6,46.1 32.6,46.55 31.6,46.6 30.75,46.45 rum_sev_bla")

# the far north-east runs on to the new eastern edge
_replace_border("STP BAR", "nwy_stp_bar 33.0,69.4 36.5,69.1 40.0,68.1 41.2,66.9 39.0,66.2 35.0,66.6 34.8,65.2 "
                "37.0,64.2 40.5,64.6 43.5,66.2 44.0,68.5 47.0,67.7 53.0,68.5 57.0,68.6 60.0,69.6 f_bar_stp")
_replace_border("STP MOS", "lvn_stp_mos 33.0,57.9 38.0,58.6 44.0,59.3 50.0,60.0 57.0,60.6 f_stp_mos")
_replace_border("NAO MAO", "iri_nao_mao -15.0,51.5 -22.0,50.0 f_nao_mao")

_junctions.update({
    # ---- frame
    "f_nao_nwg": "!-8,78", "f_nwg_bar": "!20,78", "f_bar_stp": "!62,74",
    "f_stp_mos": "!80,61", "f_mos_kaz": "!80,52", "f_kaz_tur": "!80,43", "f_tur_irn": "!80,36",
    "f_irn_ino": "!80,25.3",
    "f_ino_eth": "!50.5,2", "f_eth_sah": "!31,2", "f_sah_waf": "!-6,2", "f_waf_wao": "!-16.0,2",
    "f_wao_mao": "@0,720", "f_nao_mao": "@0,390",
    # ---- Off Board Box, below the board (board units)
    "obb_w1": f"@20,{BOARD_H}", "obb_w2": f"@90,{BOARD_H}",
    "obb_i1": f"@1525,{BOARD_H}", "obb_i2": f"@1585,{BOARD_H}",
    # ---- Gibraltar and the Atlantic
    "gib": "-5.6,35.98",
    "mao_sao_wao": "-15.0,34.5",
    "can_sao_wao_n": "-18.0,29.2",
    "can_sao_wao_s": "-15.6,27.45",
    "sao_wao_waf": "-17.05,20.8",
    "mor_waf_sao": "-12.9,27.95",
    "mor_sah_waf": "-8.7,27.7",
    "alg_mor_sah": "-1.6,32.3",
    "alg_mor_wms": "-2.2,35.1",
    "alg_tun_wms": "8.6,36.95",
    "alg_tun_lib_sah": "8.4,32.3",
    "tun_lib_sms": "11.55,33.15",
    "tun_ion_sms": "11.1,35.2",
    "lib_egy_sms": "25.15,31.6",
    "lib_egy_sah": "24.8,23.0",
    "egy_eas_sms": "29.0,30.95",
    "egy_sah_eth": "27.5,12.5",
    "egy_eth_gos": "38.6,18.0",
    "eth_gos_ino": "43.1,12.15",
    "ara_gos_ino": "43.75,12.95",
    "ara_ino_pgf": "56.3,26.3",
    "irn_pgf_ino": "56.8,27.0",
    "ara_irq_pgf": "47.9,29.3",
    "irq_irn_pgf": "48.8,30.0",
    # ---- Corsica and Crete
    "cor_lyo_tys": "9.4,43.1",
    "cor_lyo_wms": "8.6,41.55",
    "cor_tys_wms": "9.2,41.3",
    "cre_aeg_ion": "23.5,35.75",
    "cre_aeg_eas": "26.4,35.35",
    "cre_eas_sms_ion": "24.9,34.75",
    # ---- the Levant, Arabia, Persia
    "smy_ale_eas": "35.3,36.65",
    "smy_ale_arm": "36.9,38.2",
    "ale_syr_arm": "38.0,36.9",
    "ale_syr_eas": "35.85,35.8",
    "syr_leb_eas": "35.95,34.6",
    "leb_jor_eas": "35.1,33.1",
    "syr_leb_jor": "36.6,33.2",
    "syr_arm_irq": "41.5,37.0",
    "syr_irq_jor": "39.0,32.5",
    "jor_egy_eas": "34.25,31.32",
    "jor_egy_gos": "34.85,29.5",
    "jor_ara_gos": "34.95,28.8",
    "jor_irq_ara": "39.5,30.2",
    "arm_irn_irq": "44.8,37.2",
    "arm_geo_irn": "44.5,39.8",
    "geo_irn_cas": "48.9,38.4",
    "irn_tur_cas": "53.95,37.35",
    "kaz_tur_cas": "52.6,42.4",
    # ---- the Volga Canal
    "don": "39.25,47.2",
    "volga_x": "43.9,48.55",
    "volga": "47.9,46.0",
})

_borders += """
WAO OUT: f_wao_mao SW obb_w1
WAO OBB: obb_w1 obb_w2
WAO OUT: obb_w2 f_waf_wao
WAF OUT: f_waf_wao f_sah_waf
SAH OUT: f_sah_waf f_eth_sah
ETH OUT: f_eth_sah f_ino_eth
INO OUT: f_ino_eth obb_i1
INO OBB: obb_i1 obb_i2
INO OUT: obb_i2 SE f_irn_ino
IRN OUT: f_irn_ino f_tur_irn
TUR OUT: f_tur_irn f_kaz_tur
KAZ OUT: f_kaz_tur f_mos_kaz
MOS OUT: f_mos_kaz f_stp_mos
STP OUT: f_stp_mos NE f_bar_stp
BAR OUT: f_bar_stp f_nwg_bar
NWG OUT: f_nwg_bar f_nao_nwg
NAO OUT: f_nao_nwg NW f_nao_mao
MAO OUT: f_nao_mao f_wao_mao
OBB OUT: obb_w2 @90,1114 @1525,1114 obb_i1
OBB OUT: obb_i2 @1585,1146 @20,1146 obb_w1

# ---- the Atlantic off Africa
MAO WAO: f_wao_mao -25.0,35.5 mao_sao_wao
MAO SAO: mao_sao_wao -9.0,35.3 gib
SAO WAO: mao_sao_wao -17.5,31.0 can_sao_wao_n
SAO WAO: can_sao_wao_s -16.6,24.0 sao_wao_waf
CAN SAO: can_sao_wao_n -16.0,29.0 -13.3,29.6 -13.1,28.8 -14.0,27.9 can_sao_wao_s
CAN WAO: can_sao_wao_n -18.6,28.3 -17.5,27.6 can_sao_wao_s
MOR SAO: gib -5.9,35.8 -6.15,35.2 -6.85,34.0 -7.6,33.6 -8.5,33.25 -9.25,32.3 -9.8,31.4 -9.6,30.42 -10.2,29.4 -11.1,28.5 mor_waf_sao
WAF SAO: mor_waf_sao -13.2,27.15 -14.5,26.1 -15.95,23.7 sao_wao_waf
WAF WAO: sao_wao_waf -16.0,18.1 -16.5,16.0 -17.5,14.7 -16.8,13.5 f_waf_wao

# ---- Africa
MOR WMS: gib -5.3,35.9 -4.5,35.2 -2.95,35.3 alg_mor_wms
ALG WMS: alg_mor_wms -0.65,35.75 0.5,36.2 3.05,36.78 5.1,36.75 5.8,36.8 alg_tun_wms
MOR ALG: alg_mor_wms -1.8,34.0 alg_mor_sah
MOR SAH: alg_mor_sah -4.0,30.0 mor_sah_waf
MOR WAF: mor_sah_waf -11.0,27.7 mor_waf_sao
WAF SAH: mor_sah_waf -6.0,24.0 -5.5,16.0 f_sah_waf
ALG SAH: alg_mor_sah 0.0,32.0 5.0,31.5 alg_tun_lib_sah
ALG TUN: alg_tun_wms 8.3,35.5 8.0,34.0 alg_tun_lib_sah
LIB TUN: alg_tun_lib_sah 10.5,32.5 tun_lib_sms
LIB SAH: alg_tun_lib_sah 15.0,28.0 20.0,25.0 lib_egy_sah
EGY LIB: lib_egy_sms 25.0,29.0 lib_egy_sah
EGY SAH: lib_egy_sah 24.0,18.0 24.5,14.0 egy_sah_eth
ETH SAH: egy_sah_eth f_eth_sah
EGY ETH: egy_sah_eth 33.0,12.0 36.5,14.5 37.5,17.0 egy_eth_gos
TUN SMS: tun_ion_sms 10.75,34.75 10.1,33.9 10.9,33.7 tun_lib_sms
LIB SMS: tun_lib_sms 12.0,32.85 13.2,32.9 15.1,32.4 16.5,31.2 18.0,30.4 19.5,30.9 20.1,32.1 21.5,32.9 22.5,32.8 23.95,32.08 lib_egy_sms
EGY SMS: lib_egy_sms 27.25,31.35 27.9,31.1 egy_eas_sms
EGY EAS: egy_eas_sms 29.9,31.2 30.4,31.5 31.5,31.5 32.3,31.27 33.5,31.1 jor_egy_eas
EGY JOR: jor_egy_eas 34.5,30.5 jor_egy_gos
EGY GOS: jor_egy_gos 34.2,27.7 33.3,28.7 32.9,29.6 32.5,29.95 32.3,29.3 33.0,28.0 33.8,27.2 35.0,25.0 36.0,23.5 37.2,19.6 37.5,18.8 egy_eth_gos
ETH GOS: egy_eth_gos 39.5,15.6 41.0,14.2 42.7,13.0 eth_gos_ino
ETH INO: eth_gos_ino 43.1,11.5 45.0,10.45 47.0,11.2 51.3,11.8 51.3,10.4 50.2,7.5 f_ino_eth
GOS INO: eth_gos_ino ara_gos_ino

# ---- the Mediterranean
ION SMS: cre_eas_sms_ion 20.0,34.2 15.0,34.5 tun_ion_sms
EAS SMS: cre_eas_sms_ion 27.0,33.2 egy_eas_sms
CRE AEG: cre_aeg_ion 24.3,35.7 25.6,35.5 cre_aeg_eas
CRE EAS: cre_aeg_eas 26.3,34.95 cre_eas_sms_ion
CRE ION: cre_eas_sms_ion 23.6,35.1 cre_aeg_ion
COR LYO: cor_lyo_tys 8.45,42.6 8.4,42.0 cor_lyo_wms
COR WMS: cor_lyo_wms 8.9,41.35 cor_tys_wms
COR TYS: cor_tys_wms 9.6,41.8 9.65,42.4 cor_lyo_tys

# ---- the Levant
ALE EAS: smy_ale_eas 35.5,36.6 36.1,36.6 ale_syr_eas
SYR EAS: ale_syr_eas 35.75,35.5 syr_leb_eas
LEB EAS: syr_leb_eas 35.85,34.45 35.5,33.9 35.2,33.3 leb_jor_eas
JOR EAS: leb_jor_eas 35.0,32.8 34.85,32.3 34.6,31.7 jor_egy_eas
SMY ALE: smy_ale_eas 35.9,37.4 smy_ale_arm
ARM SMY: ank_smy_arm smy_ale_arm
ALE ARM: smy_ale_arm ale_syr_arm
ALE SYR: ale_syr_arm 36.8,36.2 ale_syr_eas
SYR LEB: syr_leb_eas 36.9,34.4 syr_leb_jor
LEB JOR: syr_leb_jor leb_jor_eas
SYR JOR: syr_leb_jor 37.5,32.8 syr_irq_jor
ARM SYR: ale_syr_arm 39.0,36.8 syr_arm_irq
SYR IRQ: syr_arm_irq 41.0,34.5 syr_irq_jor
JOR IRQ: syr_irq_jor jor_irq_ara
JOR ARA: jor_irq_ara 37.0,29.6 jor_ara_gos
JOR GOS: jor_egy_gos 35.0,29.53 jor_ara_gos
ARA GOS: jor_ara_gos 35.0,28.2 35.3,27.6 36.5,25.5 38.0,24.0 39.2,21.5 41.0,19.0 42.6,16.9 43.45,13.2 ara_gos_ino
ARA INO: ara_gos_ino 45.0,12.8 48.0,14.0 49.1,14.5 52.2,15.6 55.0,17.0 57.8,19.0 59.8,22.5 58.6,23.6 56.5,24.5 ara_ino_pgf
ARA PGF: ara_ino_pgf 56.0,25.5 55.3,25.25 54.0,24.1 52.0,24.0 51.6,25.9 51.2,26.1 50.8,25.0 50.1,26.4 49.6,27.0 48.5,28.0 ara_irq_pgf
ARA IRQ: jor_irq_ara 44.0,29.5 46.5,29.2 ara_irq_pgf
IRQ PGF: ara_irq_pgf irq_irn_pgf
IRN PGF: irq_irn_pgf 50.1,29.8 50.8,28.95 51.5,27.9 53.5,26.7 55.0,26.6 56.3,27.15 irn_pgf_ino
PGF INO: ara_ino_pgf irn_pgf_ino
IRN INO: irn_pgf_ino 57.8,25.6 60.0,25.3 61.6,25.1 f_irn_ino
IRQ IRN: irq_irn_pgf 47.5,32.5 46.0,34.5 45.5,36.0 arm_irn_irq
ARM IRQ: arm_irn_irq 43.0,37.0 syr_arm_irq
ARM IRN: arm_irn_irq 44.3,38.5 arm_geo_irn

# ---- the Caucasus, the Volga Canal, the Caspian
SEV ARM: don 41.0,47.7 42.8,48.3 volga_x
MOS GEO: volga_x 45.3,48.1 46.8,47.0 volga
SEV MOS: sev_ukr_mos 39.5,49.6 42.3,49.0 volga_x
ARM GEO: volga_x 43.5,46.5 43.0,44.5 43.5,42.5 44.2,41.2 arm_geo_irn
GEO IRN: arm_geo_irn 46.0,39.0 47.8,39.2 geo_irn_cas
GEO CAS: volga 47.4,45.2 47.6,44.3 47.5,43.0 48.3,42.05 49.2,41.0 50.3,40.4 49.4,40.0 49.0,39.2 48.85,38.75 geo_irn_cas
IRN CAS: geo_irn_cas 49.5,37.5 50.5,36.95 52.0,36.6 53.0,36.8 54.0,36.85 irn_tur_cas
IRN TUR: irn_tur_cas 56.0,38.0 58.5,37.6 61.0,36.5 f_tur_irn
TUR CAS: irn_tur_cas 53.9,38.5 53.0,40.0 52.8,41.0 52.9,41.8 kaz_tur_cas
KAZ TUR: kaz_tur_cas 55.5,41.5 58.0,42.5 f_kaz_tur
KAZ CAS: kaz_tur_cas 51.5,43.2 51.2,43.65 50.3,44.4 51.0,44.6 51.5,45.3 53.0,45.3 53.2,46.5 52.0,47.0 50.5,46.8 49.2,46.4 volga
MOS KAZ: volga 48.5,47.5 49.5,49.5 51.5,51.0 f_mos_kaz
""".strip().splitlines()

JUNCTIONS = "\n".join(f"{k} {v}" for k, v in _junctions.items())
BORDERS = "\n".join(b for b in _borders if b.strip() and not b.lstrip().startswith("#")).replace("WES", "WMS")

OFFBOARD = {"OBB"}

OVERLAYS = {
    # the Volga Canal: from the Don (north-east corner of the Sea of Azov) to the
    # Volga delta, drawn over the land; it opens onto the Black Sea and the Caspian
    "VOL": {"line": "don 41.0,47.7 42.8,48.3 volga_x 45.3,48.1 46.8,47.0 volga", "width": 12,
            # "start"/"end": (point on the south bank, point on the north bank)
            "start": ("38.95,46.95", "38.7,47.2"), "end": ("47.4,45.2", "49.2,46.4")},
}

SPACES = {k: dict(v) for k, v in _std.SPACES.items() if k not in ("NAF", "WES", "SYR")}
SPACES.update({
    "WMS": {"xy": "3.5,38.2"},
    "NAO": {"xy": "-22.0,56.0"},
    "MAO": {"xy": "-20.0,43.0"},
    "MOR": {"xy": "-6.0,32.5", "centre": "-6.85,34.0"},
    "ALG": {"xy": "2.5,34.5", "centre": "3.05,36.6"},
    "TUN": {"xy": "9.5,34.5", "centre": "10.17,36.7"},
    "LIB": {"xy": "17.0,28.5"},
    "SAH": {"xy": "10.0,22.0"},
    "EGY": {"xy": "30.0,25.0", "centre": "31.2,30.0"},
    "ETH": {"xy": "39.0,11.0", "centre": "38.7,9.0"},
    "WAF": {"xy": "-12.0,20.0"},
    "CAN": {"xy": "-15.8,28.4", "centre": "-14.4,28.6"},
    "SAO": {"xy": "-14.0,31.5"},
    "WAO": {"xy": "-27.0,26.0"},
    "OBB": {"xy": "@800,1130"},
    "COR": {"xy": "9.1,42.2", "centre": "8.95,41.8"},
    "CRE": {"xy": "24.6,35.3", "centre": "25.6,35.3"},
    "SMS": {"xy": "20.0,33.3"},
    "ALE": {"xy": "36.5,36.9"},
    "SYR": {"xy": "38.5,34.8"},
    "LEB": {"xy": "36.0,33.9"},
    "JOR": {"xy": "36.8,31.0", "centre": "36.3,32.0", "coast": {"WC": "35.25,32.6", "SC": "35.4,29.75"}},
    "IRQ": {"xy": "43.5,33.5", "centre": "44.4,33.3"},
    "IRN": {"xy": "54.0,32.0", "centre": "51.4,35.7", "coast": {"NC": "51.0,36.3", "SC": "54.0,27.8"}},
    "ARA": {"xy": "45.0,22.0"},
    "PGF": {"xy": "51.5,27.3"},
    "INO": {"xy": "58.0,15.0"},
    "GOS": {"xy": "38.5,20.5"},
    "GEO": {"xy": "46.0,42.0"},
    "CAS": {"xy": "51.0,42.0"},
    "TUR": {"xy": "59.0,39.5"},
    "KAZ": {"xy": "58.0,47.0"},
    "VOL": {"xy": "45.3,48.1"},
})
SPACES["PIE"] = dict(SPACES["PIE"], centre="7.7,45.07")


def _place(sid: str, xy: str | None = None, centre: str | None = None) -> None:
    """Move a label or a centre marker where this board's projection needs it."""
    if xy:
        SPACES[sid]["xy"] = xy
    if centre:
        SPACES[sid]["centre"] = centre


for _sid, _xy, _centre in [
    ("ALB", "20.09,41.14", None), ("ALE", "36.79,37.08", None), ("ALG", None, "3.16,36.22"),
    ("CRE", "24.7,35.22", "25.75,35.25"), ("ENG", "-2.94,49.65", None), ("LEB", "36.06,33.67", None),
    ("MOR", None, "-6.38,33.5"), ("PGF", "53.35,25.51", None), ("PIC", "2.6,50.04", None),
    ("POR", "-8.23,39.56", None), ("PRU", "17.74,53.87", None), ("SWE", None, "17.63,59.25"),
    ("TUN", None, "10.06,36.43"), ("TYR", "11.7,46.84", None), ("YOR", "-0.92,53.45", None),
    ("IRQ", "43.34,32.2", None), ("PIE", "8.59,44.9", None),
]:
    _place(_sid, _xy, _centre)

DECOR = [d for d in _std.DECOR if d["name"] not in ("Corsica", "Crete")]
