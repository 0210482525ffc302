"""The Ancient Mediterranean (Don Hessong): five powers round the sea of antiquity, drawn
as longitude/latitude points.

A schematic drawing, the project's own: straight borders between hand-placed junctions
(named after the three spaces that meet there), roughly where the provinces lie on a
map of the Mediterranean (Iberia at the west edge, Armenia and Arabia at the east, the
Sahara and the Red Sea along the south). No other map's artwork, paths or coordinates
were used; the adjacencies it must show are those of
src/gamesmaster/variants/data/ancient-med.toml, and build.py checks them.

Three places where four spaces meet at one point (a strait crossed both ways):
- messina: Neapolis and Sicilia (armies cross), the Tyrrhenian and Ausonian seas;
- delta: the mouth of the Nile, where Alexandria, Thebes, Sinai and the Gulf of
  Pelusium meet (Thebes touches the gulf, Alexandria touches Sinai);
- central: the Ausonian, Messenian and Libyan seas and the Gulf of Tacape, each of
  which borders the other three.

The label points and supply-centre points were placed where each outline is widest.
"""

PROJECTION = {
    # nearly flat (n small): the board spans 60 degrees of longitude and 24 of latitude
    "n": 0.02, "lon0": 20.0, "lat_true": 38.0,
    "width": 1200, "height": 640,
    "left": (-10.0, 38.0), "right": (50.0, 38.0), "top": (20.0, 50.0), "bottom": (20.0, 26.0),
}

JUNCTIONS = """
f_gau_rha      !6,50
f_rha_srm      !14,50
f_srm_che      !30,50
f_che_arm      !42,50
f_arm_dam      !50,38
f_dam_ara      !50,34
f_ara_nab      !50,31
f_nab_ery      !40,26
f_the_ery      !34,26
f_bay_the      !31,26
f_sah_bay      !22,26
f_mau_sah      !-10,32
f_sag_mau      !-10,36
f_lus_sag      !-10,37.5
f_gau_lus      !-10,44
gau_rha_mas    5,45.5
gau_mas_tar    2.5,43.2
gau_tar_lus    -2,43
lus_tar_sag    -2.5,39.5
mas_tar_lig    3.2,42.3
tar_lig_bal    2,40.8
tar_bal_sag    0.5,39.3
bal_sag_ber    0.3,38
bal_lig_ber    4,39.5
sag_ber_ibe    -1,36.8
ibe_ber_mau    -1,35.3
sag_mau_ibe    -5.5,36
ber_mau_car    6.5,36.9
mau_car_cir    7,35.5
mau_cir_sah    4,33
rha_mas_etr    7.6,45
mas_etr_lig    8.3,44
rha_srm_vin    14,47.5
rha_vin_ven    12.5,46.5
rha_ven_etr    10.5,45
ven_etr_rav    11.5,44.3
etr_rav_rom    12,43
etr_rom_lig    11,42.4
ven_vin_dal    14.5,45.8
ven_dal_adr    14,45
ven_rav_adr    12.5,44.8
rav_apu_adr    15,41.9
rav_apu_rom    14,41.6
rom_apu_nea    14.8,41
rom_nea_tyn    13.8,40.9
rom_tyn_lig    11.5,41.3
apu_adr_ion    18,40.3
apu_nea_ion    16.5,39.5
nea_ion_aus    16.6,38.3
messina        15.6,38.2
sic_aus_pun    14.5,36.6
sic_pun_tyn    12.3,37.8
lig_tyn_cor    9.4,43
cor_tyn_sar    9.6,41.3
cor_sar_lig    8.6,41.5
sar_tyn_pun    9.8,39
sar_pun_ber    8.5,38.8
sar_ber_lig    8.2,40.5
ber_pun_car    9,37.3
car_pun_tha    10.5,36.8
car_tha_cir    9.5,35.5
pun_aus_got    13.5,35.5
pun_got_tha    11.2,35.6
tha_got_num    10.8,34.5
tha_num_cir    9.5,34.3
num_cir_pha    9,32
cir_pha_sah    6,30.5
num_got_lep    12.5,33
num_lep_pha    12,31.5
pha_sah_bay    20,28
lep_pha_mar    17,30.5
pha_mar_bay    21,29.5
lep_got_gos    15,32.6
lep_gos_cyr    19.5,31.5
lep_cyr_mar    19,30.5
got_gos_lib    18,33.5
gos_lib_cyr    20.5,32.6
cyr_lib_ale    27,31.5
cyr_ale_mem    27.5,30.5
cyr_mem_mar    25,29.8
mem_mar_bay    27,28.5
mem_bay_the    30,28.5
ale_mem_the    30,30.3
ale_lib_egy    28.5,32.3
ale_egy_gop    30.3,31.9
delta          31.5,31
sin_the_ery    33,29
gop_sin_jer    33.5,31.3
sin_jer_pet    34.5,30.5
sin_pet_ery    34.5,29.5
egy_gop_syr    32.5,33
gop_syr_jer    34.5,32.3
syr_jer_tyr    35,33
tyr_jer_ara    36.5,32.8
jer_ara_nab    37,31.5
jer_nab_pet    36,30.3
pet_nab_ery    36,28.5
sid_tyr_ara    37,33.8
syr_tyr_sid    35.3,33.7
sid_ara_dam    38,34.5
cil_syr_sid    35.5,35
cil_sid_ant    35.8,35.8
ant_sid_dam    37,35.5
cil_ant_cap    36,36.8
cap_ant_dam    37.5,37
cap_dam_arm    40,38.5
che_arm_snp    40,42
snp_arm_cap    39,40
che_snp_pon    38,41.5
dac_che_pon    31,45.5
srm_dac_che    29,46.5
snp_bit_pon    34,41.8
bit_byz_pon    29.5,41.3
dac_byz_pon    28.8,41.8
snp_cap_gal    36,39.8
snp_gal_bit    33,40.5
bit_gal_byz    30,40.3
byz_gal_mil    29,39.5
byz_mil_aeg    26.7,39.6
mac_byz_aeg    25.5,40.8
dac_mac_byz    26.5,41.8
gal_cap_isa    33.5,38.5
gal_isa_mil    30,37.8
cap_isa_cil    34,36.6
isa_cil_mil    30.5,36.5
mil_cil_min    28.5,36.4
mil_min_aeg    27,37.2
cyp_cil_syr    34.7,35.6
cyp_syr_egy    33.6,34.3
cyp_egy_cil    32.2,35.2
egy_cil_min    29.5,35.3
cre_mes_aeg    23.2,35.7
cre_aeg_min    25.2,35.9
cre_min_egy    26.6,35.2
cre_egy_lib    25.5,34.5
cre_lib_mes    23.3,34.9
spa_mes_aeg    23,36.5
ath_spa_aeg    23.5,37.8
mac_ath_aeg    23,39.5
epi_mac_ath    21.5,39.5
ill_epi_mac    21,41
ill_mac_dac    23,43
ath_spa_ion    21.8,37.9
epi_ath_ion    21,38.8
spa_ion_mes    21.7,36.8
epi_ion_adr    19.5,40.2
dal_epi_adr    19.3,41.8
ill_dal_epi    20.2,42.3
vin_dal_ill    17,45
vin_srm_ill    19,46.5
ill_srm_dac    24,45.5
ion_mes_aus    19,36.5
central        18.5,34.5
"""

BORDERS = """
GAU RHA: f_gau_rha gau_rha_mas
GAU MAS: gau_mas_tar gau_rha_mas
GAU TAR: gau_mas_tar gau_tar_lus
GAU LUS: f_gau_lus gau_tar_lus
LUS TAR: gau_tar_lus lus_tar_sag
LUS SAG: f_lus_sag lus_tar_sag
TAR MAS: gau_mas_tar mas_tar_lig
TAR LIG: mas_tar_lig tar_lig_bal
TAR BAL: tar_bal_sag tar_lig_bal
TAR SAG: lus_tar_sag tar_bal_sag
SAG BAL: bal_sag_ber tar_bal_sag
SAG BER: bal_sag_ber sag_ber_ibe
SAG IBE: sag_ber_ibe sag_mau_ibe
SAG MAU: f_sag_mau sag_mau_ibe
BAL LIG: bal_lig_ber tar_lig_bal
BAL BER: bal_lig_ber bal_sag_ber
IBE BER: ibe_ber_mau sag_ber_ibe
IBE MAU: ibe_ber_mau sag_mau_ibe
MAU BER: ber_mau_car ibe_ber_mau
MAU CAR: ber_mau_car mau_car_cir
MAU CIR: mau_car_cir mau_cir_sah
MAU SAH: f_mau_sah mau_cir_sah
MAS RHA: gau_rha_mas rha_mas_etr
MAS ETR: mas_etr_lig rha_mas_etr
MAS LIG: mas_etr_lig mas_tar_lig
RHA SRM: f_rha_srm rha_srm_vin
RHA VIN: rha_srm_vin rha_vin_ven
RHA VEN: rha_ven_etr rha_vin_ven
RHA ETR: rha_mas_etr rha_ven_etr
ETR VEN: rha_ven_etr ven_etr_rav
ETR RAV: etr_rav_rom ven_etr_rav
ETR ROM: etr_rav_rom etr_rom_lig
ETR LIG: etr_rom_lig mas_etr_lig
VEN VIN: rha_vin_ven ven_vin_dal
VEN DAL: ven_dal_adr ven_vin_dal
VEN ADR: ven_dal_adr ven_rav_adr
VEN RAV: ven_etr_rav ven_rav_adr
RAV ADR: rav_apu_adr ven_rav_adr
RAV APU: rav_apu_adr rav_apu_rom
RAV ROM: etr_rav_rom rav_apu_rom
ROM APU: rav_apu_rom rom_apu_nea
ROM NEA: rom_apu_nea rom_nea_tyn
ROM TYN: rom_nea_tyn rom_tyn_lig
ROM LIG: etr_rom_lig rom_tyn_lig
APU ADR: apu_adr_ion rav_apu_adr
APU ION: apu_adr_ion apu_nea_ion
APU NEA: apu_nea_ion rom_apu_nea
NEA ION: apu_nea_ion nea_ion_aus
NEA AUS: messina nea_ion_aus
NEA TYN: messina rom_nea_tyn
SIC AUS: messina sic_aus_pun
SIC PUN: sic_aus_pun sic_pun_tyn
SIC TYN: messina sic_pun_tyn
COR TYN: cor_tyn_sar lig_tyn_cor
COR SRD: cor_sar_lig cor_tyn_sar
COR LIG: cor_sar_lig lig_tyn_cor
SRD TYN: cor_tyn_sar sar_tyn_pun
SRD PUN: sar_pun_ber sar_tyn_pun
SRD BER: sar_ber_lig sar_pun_ber
SRD LIG: cor_sar_lig sar_ber_lig
LIG TYN: lig_tyn_cor rom_tyn_lig
LIG BER: bal_lig_ber sar_ber_lig
TYN PUN: sar_tyn_pun sic_pun_tyn
BER PUN: ber_pun_car sar_pun_ber
BER CAR: ber_mau_car ber_pun_car
CAR PUN: ber_pun_car car_pun_tha
CAR THA: car_pun_tha car_tha_cir
CAR CIR: car_tha_cir mau_car_cir
PUN AUS: pun_aus_got sic_aus_pun
PUN GOT: pun_aus_got pun_got_tha
PUN THA: car_pun_tha pun_got_tha
THA GOT: pun_got_tha tha_got_num
THA NUM: tha_got_num tha_num_cir
THA CIR: car_tha_cir tha_num_cir
CIR NUM: num_cir_pha tha_num_cir
CIR PHA: cir_pha_sah num_cir_pha
CIR SAH: cir_pha_sah mau_cir_sah
NUM GOT: num_got_lep tha_got_num
NUM LEP: num_got_lep num_lep_pha
NUM PHA: num_cir_pha num_lep_pha
SAH PHA: cir_pha_sah pha_sah_bay
SAH BAY: f_sah_bay pha_sah_bay
PHA LEP: lep_pha_mar num_lep_pha
PHA MRM: lep_pha_mar pha_mar_bay
PHA BAY: pha_mar_bay pha_sah_bay
LEP GOT: lep_got_gos num_got_lep
LEP GOS: lep_gos_cyr lep_got_gos
LEP CYR: lep_cyr_mar lep_gos_cyr
LEP MRM: lep_cyr_mar lep_pha_mar
GOS GOT: got_gos_lib lep_got_gos
GOS LIB: gos_lib_cyr got_gos_lib
GOS CYR: gos_lib_cyr lep_gos_cyr
CYR LIB: cyr_lib_ale gos_lib_cyr
CYR ALE: cyr_ale_mem cyr_lib_ale
CYR MEM: cyr_ale_mem cyr_mem_mar
CYR MRM: cyr_mem_mar lep_cyr_mar
MRM MEM: cyr_mem_mar mem_mar_bay
MRM BAY: mem_mar_bay pha_mar_bay
BAY MEM: mem_bay_the mem_mar_bay
BAY THE: f_bay_the mem_bay_the
MEM ALE: ale_mem_the cyr_ale_mem
MEM THE: ale_mem_the mem_bay_the
ALE LIB: ale_lib_egy cyr_lib_ale
ALE EGY: ale_egy_gop ale_lib_egy
ALE GOP: ale_egy_gop delta
ALE THE: ale_mem_the delta
THE SNA: delta sin_the_ery
THE ERY: f_the_ery sin_the_ery
SNA GOP: delta gop_sin_jer
SNA JER: gop_sin_jer sin_jer_pet
SNA PET: sin_jer_pet sin_pet_ery
SNA ERY: sin_pet_ery sin_the_ery
GOP EGY: ale_egy_gop egy_gop_syr
GOP SYS: egy_gop_syr gop_syr_jer
GOP JER: gop_sin_jer gop_syr_jer
JER SYS: gop_syr_jer syr_jer_tyr
JER TYE: syr_jer_tyr tyr_jer_ara
JER ARA: jer_ara_nab tyr_jer_ara
JER NAB: jer_ara_nab jer_nab_pet
JER PET: jer_nab_pet sin_jer_pet
PET NAB: jer_nab_pet pet_nab_ery
PET ERY: pet_nab_ery sin_pet_ery
NAB ARA: f_ara_nab jer_ara_nab
NAB ERY: f_nab_ery pet_nab_ery
ARA TYE: sid_tyr_ara tyr_jer_ara
ARA SID: sid_ara_dam sid_tyr_ara
ARA DAM: f_dam_ara sid_ara_dam
TYE SYS: syr_jer_tyr syr_tyr_sid
TYE SID: sid_tyr_ara syr_tyr_sid
SID SYS: cil_syr_sid syr_tyr_sid
SID CIL: cil_sid_ant cil_syr_sid
SID ANT: ant_sid_dam cil_sid_ant
SID DAM: ant_sid_dam sid_ara_dam
ANT CIL: cil_ant_cap cil_sid_ant
ANT CAP: cap_ant_dam cil_ant_cap
ANT DAM: ant_sid_dam cap_ant_dam
DAM CAP: cap_ant_dam cap_dam_arm
DAM ARM: cap_dam_arm f_arm_dam
ARM CAP: cap_dam_arm snp_arm_cap
ARM SNP: che_arm_snp snp_arm_cap
ARM CHE: che_arm_snp f_che_arm
CHE SNP: che_arm_snp che_snp_pon
CHE PON: che_snp_pon dac_che_pon
CHE DAC: dac_che_pon srm_dac_che
CHE SRM: f_srm_che srm_dac_che
PON SNP: che_snp_pon snp_bit_pon
PON BIT: bit_byz_pon snp_bit_pon
PON BYZ: bit_byz_pon dac_byz_pon
PON DAC: dac_byz_pon dac_che_pon
SNP CAP: snp_arm_cap snp_cap_gal
SNP GAL: snp_cap_gal snp_gal_bit
SNP BIT: snp_bit_pon snp_gal_bit
BIT GAL: bit_gal_byz snp_gal_bit
BIT BYZ: bit_byz_pon bit_gal_byz
BYZ GAL: bit_gal_byz byz_gal_mil
BYZ MIL: byz_gal_mil byz_mil_aeg
BYZ AEG: byz_mil_aeg mac_byz_aeg
BYZ MAC: dac_mac_byz mac_byz_aeg
BYZ DAC: dac_byz_pon dac_mac_byz
GAL CAP: gal_cap_isa snp_cap_gal
GAL ISA: gal_cap_isa gal_isa_mil
GAL MIL: byz_gal_mil gal_isa_mil
CAP CIL: cap_isa_cil cil_ant_cap
CAP ISA: cap_isa_cil gal_cap_isa
ISA CIL: cap_isa_cil isa_cil_mil
ISA MIL: gal_isa_mil isa_cil_mil
MIL CIL: isa_cil_mil mil_cil_min
MIL MIN: mil_cil_min mil_min_aeg
MIL AEG: byz_mil_aeg mil_min_aeg
CIL SYS: cil_syr_sid cyp_cil_syr
CIL CYP: cyp_cil_syr cyp_egy_cil
CIL EGY: cyp_egy_cil egy_cil_min
CIL MIN: egy_cil_min mil_cil_min
SYS EGY: cyp_syr_egy egy_gop_syr
SYS CYP: cyp_cil_syr cyp_syr_egy
CYP EGY: cyp_egy_cil cyp_syr_egy
EGY LIB: ale_lib_egy cre_egy_lib
EGY CRE: cre_egy_lib cre_min_egy
EGY MIN: cre_min_egy egy_cil_min
MIN AEG: cre_aeg_min mil_min_aeg
MIN CRE: cre_aeg_min cre_min_egy
CRE AEG: cre_aeg_min cre_mes_aeg
CRE LIB: cre_egy_lib cre_lib_mes
CRE MES: cre_lib_mes cre_mes_aeg
AEG MES: cre_mes_aeg spa_mes_aeg
AEG SPA: ath_spa_aeg spa_mes_aeg
AEG ATH: ath_spa_aeg mac_ath_aeg
AEG MAC: mac_ath_aeg mac_byz_aeg
MES ION: ion_mes_aus spa_ion_mes
MES SPA: spa_ion_mes spa_mes_aeg
MES LIB: central cre_lib_mes
MES AUS: central ion_mes_aus
SPA ION: ath_spa_ion spa_ion_mes
SPA ATH: ath_spa_aeg ath_spa_ion
ATH ION: ath_spa_ion epi_ath_ion
ATH EPI: epi_ath_ion epi_mac_ath
ATH MAC: epi_mac_ath mac_ath_aeg
MAC EPI: epi_mac_ath ill_epi_mac
MAC ILL: ill_epi_mac ill_mac_dac
MAC DAC: dac_mac_byz ill_mac_dac
EPI ION: epi_ath_ion epi_ion_adr
EPI ADR: dal_epi_adr epi_ion_adr
EPI DAL: dal_epi_adr ill_dal_epi
EPI ILL: ill_dal_epi ill_epi_mac
DAL VIN: ven_vin_dal vin_dal_ill
DAL ILL: ill_dal_epi vin_dal_ill
DAL ADR: dal_epi_adr ven_dal_adr
VIN SRM: rha_srm_vin vin_srm_ill
VIN ILL: vin_dal_ill vin_srm_ill
ILL SRM: ill_srm_dac vin_srm_ill
ILL DAC: ill_mac_dac ill_srm_dac
SRM DAC: ill_srm_dac srm_dac_che
ADR ION: apu_adr_ion epi_ion_adr
ION AUS: ion_mes_aus nea_ion_aus
AUS GOT: central pun_aus_got
LIB GOT: central got_gos_lib
GAU OUT: f_gau_lus NW f_gau_rha
LUS OUT: f_gau_lus f_lus_sag
SAG OUT: f_lus_sag f_sag_mau
MAU OUT: f_mau_sah f_sag_mau
RHA OUT: f_gau_rha f_rha_srm
SAH OUT: f_mau_sah SW f_sah_bay
BAY OUT: f_bay_the f_sah_bay
THE OUT: f_bay_the f_the_ery
NAB OUT: f_nab_ery SE f_ara_nab
ERY OUT: f_nab_ery f_the_ery
ARA OUT: f_ara_nab f_dam_ara
DAM OUT: f_arm_dam f_dam_ara
ARM OUT: f_arm_dam NE f_che_arm
CHE OUT: f_che_arm f_srm_che
SRM OUT: f_rha_srm f_srm_che
"""

SPACES = {
    "ADR": {"xy": "16.35,42.36"},
    "AEG": {"xy": "25.10,38.55"},
    "ALE": {"xy": "28.80,31.30", "centre": "30.15,31.15"},
    "ANT": {"xy": "36.56,36.25", "centre": "37.03,36.62"},
    "APU": {"xy": "16.60,40.28"},
    "ARA": {"xy": "41.56,32.84"},
    "ARM": {"xy": "45.33,43.10"},
    "ATH": {"xy": "22.19,38.69", "centre": "22.94,38.27"},
    "AUS": {"xy": "16.39,36.49"},
    "BAL": {"xy": "2.15,39.68", "centre": "1.13,39.05"},
    "BAY": {"xy": "22.75,27.57"},
    "BER": {"xy": "6.75,38.55"},
    "BIT": {"xy": "32.54,41.05"},
    "BYZ": {"xy": "28.43,40.65", "centre": "26.74,40.82"},
    "CAP": {"xy": "36.75,38.38"},
    "CAR": {"xy": "8.90,36.40", "centre": "7.50,36.22"},
    "CHE": {"xy": "37.12,46.17", "centre": "32.58,47.45"},
    "CIL": {"xy": "35.06,35.95"},
    "CIR": {"xy": "7.30,33.25", "centre": "5.38,32.88"},
    "COR": {"xy": "9.17,41.77"},
    "CRE": {"xy": "25.10,35.25", "centre": "24.05,35.30"},
    "CYP": {"xy": "33.40,35.00", "centre": "34.05,35.15"},
    "CYR": {"xy": "20.91,31.41", "centre": "23.25,31.06"},
    "DAC": {"xy": "27.60,44.03"},
    "DAL": {"xy": "16.63,44.30", "centre": "17.72,43.50"},
    "DAM": {"xy": "42.20,36.36", "centre": "47.08,36.14"},
    "EGY": {"xy": "30.10,33.60"},
    "EPI": {"xy": "20.29,40.55"},
    "ERY": {"xy": "35.10,27.40"},
    "ETR": {"xy": "10.68,43.70"},
    "GAL": {"xy": "30.57,39.15"},
    "GAU": {"xy": "-1.60,46.50"},
    "GOP": {"xy": "32.61,32.05"},
    "GOS": {"xy": "18.02,32.65"},
    "GOT": {"xy": "13.50,34.18"},
    "IBE": {"xy": "-1.67,36.05"},
    "ILL": {"xy": "21.20,44.02"},
    "ION": {"xy": "18.89,38.59"},
    "ISA": {"xy": "32.80,37.45"},
    "JER": {"xy": "35.51,31.65", "centre": "34.38,31.38"},
    "LEP": {"xy": "15.00,31.75", "centre": "13.31,32.06"},
    "LIB": {"xy": "24.82,33.39"},
    "LIG": {"xy": "6.99,41.86"},
    "LUS": {"xy": "-7.40,40.91"},
    "MAC": {"xy": "23.34,41.34", "centre": "24.99,41.42"},
    "MRM": {"xy": "24.75,29.35"},
    "MAS": {"xy": "5.40,44.22", "centre": "3.95,43.42"},
    "MAU": {"xy": "-7.88,34.08"},
    "MEM": {"xy": "27.62,29.50", "centre": "29.12,29.30"},
    "MES": {"xy": "20.00,35.65"},
    "MIL": {"xy": "28.22,38.16", "centre": "29.36,37.20"},
    "MIN": {"xy": "27.02,36.10"},
    "NAB": {"xy": "40.90,28.61"},
    "NEA": {"xy": "15.83,39.11", "centre": "15.06,40.02"},
    "NUM": {"xy": "10.57,33.00", "centre": "11.62,32.33"},
    "PET": {"xy": "35.29,29.75", "centre": "35.66,29.15"},
    "PHA": {"xy": "11.25,30.60"},
    "PON": {"xy": "31.56,43.19"},
    "PUN": {"xy": "11.95,36.73"},
    "RAV": {"xy": "12.64,43.52", "centre": "13.51,42.72"},
    "RHA": {"xy": "8.15,47.50"},
    "ROM": {"xy": "12.04,42.00", "centre": "13.09,41.58"},
    "SAG": {"xy": "-2.39,38.01", "centre": "-5.28,37.40"},
    "SAH": {"xy": "2.00,29.50"},
    "SRD": {"xy": "8.96,40.35", "centre": "9.24,39.41"},
    "SIC": {"xy": "14.28,37.40", "centre": "13.54,37.56"},
    "SID": {"xy": "36.38,34.70", "centre": "37.26,34.54"},
    "SNA": {"xy": "33.38,30.15"},
    "SNP": {"xy": "35.98,40.73", "centre": "38.42,40.79"},
    "SPA": {"xy": "22.60,37.23", "centre": "22.11,37.59"},
    "SRM": {"xy": "24.00,47.75"},
    "SYS": {"xy": "34.15,33.62"},
    "TAR": {"xy": "-0.22,41.25"},
    "THA": {"xy": "10.27,35.24", "centre": "10.43,36.05"},
    "THE": {"xy": "31.70,28.25", "centre": "32.80,26.88"},
    "TYN": {"xy": "12.50,39.49"},
    "TYE": {"xy": "36.20,33.30", "centre": "35.50,33.30"},
    "VEN": {"xy": "12.70,45.62"},
    "VIN": {"xy": "16.56,46.06", "centre": "14.94,46.50"},
}
