"""The standard Diplomacy board, drawn as longitude/latitude points.

See tools/geometry/build.py for the meaning of the tables. Points are written
"lon,lat" (degrees east, degrees north); "!lon,lat" snaps the point onto the
nearest edge of the board; NW/NE/SW/SE are the corners of the board.
"""

PROJECTION = {
    "n": 0.5, "lon0": 12.0, "lat_true": 50.0,
    "width": 1200, "height": 1000,
    # the board: x from the meridian/parallel crossing at `left` to `right`,
    # y from `top` to `bottom`
    "left": (-17.5, 47.0), "right": (45.0, 42.0), "top": (18.0, 73.3), "bottom": (12.0, 33.2),
    # local magnification: (lon, lat, strength, radius in board units)
    # widen the busy middle of the board, squeeze the margins
    "stretch_x": [(560.0, 280.0, 0.9)],
    "stretch_y": [(600.0, 300.0, 0.8)],
    "zooms": [(6.5, 52.0, 0.3, 110.0), (-4.5, 54.0, 0.55, 0.25, 140.0), (16.0, 40.5, 0.25, 90.0)],
}

JUNCTIONS = """
# ---- frame
f_nao_nwg     !-8,75
f_nwg_bar     !20,76
f_bar_stp     !60,67.3
f_stp_mos     !60,60.5
f_mos_sev     !57,51
f_sev_arm     !48,41.5
f_arm_syr     !47,37.3
f_syr_eas     !34.3,30.8
f_ion_eas     !24,32.3
f_tun_ion     !11.7,32.6
f_naf_tun     !8.0,32.5
f_mao_naf     !-9.8,31.0
f_nao_mao     !-22,51.5
# ---- British Isles
cly_nao_nwg   -5.0,58.62
cly_edi_nwg   -4.5,58.55
edi_nth_nwg   -3.0,58.65
edi_yor_nth   -1.75,55.6
edi_lvp_yor   -2.4,55.05
cly_edi_lvp   -3.7,55.5
cly_lvp_nao   -4.9,55.2
lvp_nao_iri   -3.6,54.5
lvp_wal_iri   -3.1,53.3
lvp_wal_yor   -2.1,53.1
wal_yor_lon   -1.4,52.2
lon_yor_nth   0.2,52.9
lon_eng_nth   1.45,51.35
lon_wal_eng   -1.8,50.72
wal_eng_iri   -5.7,50.05
iri_eng_mao   -6.0,49.4
iri_nao_mao   -11.5,51.0
# ---- France, Low Countries, Germany
bre_eng_mao   -4.78,48.4
bre_gas_mao   -2.2,47.2
bre_pic_eng   0.2,49.45
bre_pic_par   0.8,49.0
bre_par_gas   -0.2,47.4
par_gas_bur   2.5,47.4
pic_par_bur   3.0,49.3
pic_bur_bel   4.1,50.0
pic_bel_eng   2.4,51.06
bel_eng_nth   2.85,51.2
bel_hol_nth   3.45,51.38
bel_hol_ruh   6.0,51.1
bel_ruh_bur   6.1,50.2
bur_ruh_mun   8.2,49.8
bur_mun_swi   7.6,47.6
bur_mar_swi   6.0,46.2
gas_bur_mar   3.6,45.3
gas_mar_spa   1.0,42.75
gas_spa_mao   -1.78,43.37
mar_spa_lyo   3.17,42.43
mar_pie_lyo   7.5,43.78
mar_pie_swi   6.9,45.9
hol_ruh_kie   6.9,52.4
hol_kie_hel   7.2,53.3
hol_hel_nth   5.4,53.4
ruh_kie_mun   8.6,51.9
kie_mun_ber   11.0,52.6
kie_ber_bal   11.8,54.1
den_kie_hel   8.6,55.35
den_kie_bal   9.7,55.45
den_nth_hel   8.1,55.75
den_ska_nth   8.6,57.1
den_swe_bal   12.85,55.55
den_swe_ska   12.6,56.1
ber_mun_sil   13.8,51.5
ber_pru_sil   16.4,53.0
ber_pru_bal   16.3,54.45
# ---- Scandinavia and the Baltic
nwy_nwg_nth   4.9,61.0
nwy_nth_ska   7.05,57.98
nwy_swe_ska   11.2,59.0
nwy_swe_fin   20.5,69.0
nwy_fin_stp   29.0,69.1
nwy_stp_bar   30.8,69.8
nwy_nwg_bar   23.5,70.8
fin_swe_bot   24.15,65.82
fin_stp_bot   28.7,60.55
stp_lvn_bot   28.0,59.45
lvn_bot_bal   23.4,59.0
swe_bot_bal   18.8,60.0
lvn_stp_mos   29.5,57.3
lvn_mos_war   28.3,55.1
lvn_war_pru   22.6,54.35
pru_lvn_bal   21.15,55.72
pru_war_sil   18.3,52.9
# ---- Central Europe and Italy
swi_mun_tyr   9.6,47.5
swi_tyr_pie   9.0,46.2
pie_tyr_ven   10.3,45.9
pie_ven_tus   9.7,44.5
pie_tus_lyo   9.8,44.1
tus_lyo_tys   10.4,43.2
tus_rom_tys   11.5,42.3
tus_ven_rom   12.2,43.6
rom_ven_apu   13.4,43.0
ven_apu_adr   13.9,42.8
rom_apu_nap   14.3,41.5
rom_nap_tys   13.7,41.25
nap_apu_ion   16.7,40.3
nap_tys_ion   15.63,38.0
apu_ion_adr   18.5,40.15
ven_tri_adr   13.4,45.75
ven_tri_tyr   13.0,46.5
tyr_tri_vie   14.2,47.0
tyr_vie_boh   13.8,48.6
mun_boh_tyr   13.0,48.9
boh_sil_mun   14.2,50.9
boh_vie_gal   17.0,49.0
boh_gal_sil   18.0,49.8
sil_gal_war   19.5,50.3
vie_gal_bud   18.0,48.6
tri_vie_bud   16.3,46.9
tri_bud_ser   19.2,45.0
tri_ser_alb   20.2,42.5
tri_alb_adr   19.1,42.1
alb_ion_adr   19.45,40.45
alb_gre_ion   20.0,39.7
alb_ser_gre   20.8,41.2
# ---- Balkans, Russia, Turkey
gal_war_ukr   24.5,50.8
gal_ukr_rum   26.6,48.2
gal_rum_bud   23.5,47.9
bud_rum_ser   22.5,44.6
ser_rum_bul   23.0,44.0
ser_bul_gre   22.3,41.6
bul_gre_aeg   24.4,40.93
bul_con_aeg   25.9,40.85
bul_con_bla   27.95,42.05
rum_bul_bla   28.55,43.75
rum_sev_bla   30.2,45.9
rum_sev_ukr   28.3,47.5
sev_ukr_mos   36.0,50.0
ukr_mos_war   28.8,52.5
con_ank_bla   30.6,41.12
con_ank_smy   30.3,39.9
con_smy_aeg   26.35,39.95
ank_smy_arm   35.5,39.8
ank_arm_bla   37.2,41.1
arm_sev_bla   41.6,41.8
smy_syr_arm   37.0,38.0
smy_syr_eas   34.6,36.8
smy_aeg_eas   28.2,36.75
gre_aeg_ion   22.5,36.4
aeg_ion_eas   23.0,35.6
# ---- Mediterranean and Africa
spa_lyo_wes   0.9,40.7
spa_mao_wes   -5.35,36.16
spa_por_mao_s -7.4,37.18
spa_por_mao_n -8.85,41.87
lyo_wes_tys   8.3,40.0
naf_mao_wes   -5.75,35.82
naf_tun_wes   8.6,36.95
tun_wes_tys   10.2,37.25
tun_tys_ion   11.05,37.08
"""

BORDERS = """
# ---- the frame
NAO OUT: f_nao_mao NW f_nao_nwg
NWG OUT: f_nao_nwg f_nwg_bar
BAR OUT: f_nwg_bar NE f_bar_stp
STP OUT: f_bar_stp f_stp_mos
MOS OUT: f_stp_mos f_mos_sev
SEV OUT: f_mos_sev f_sev_arm
ARM OUT: f_sev_arm f_arm_syr
SYR OUT: f_arm_syr SE f_syr_eas
EAS OUT: f_syr_eas f_ion_eas
ION OUT: f_ion_eas f_tun_ion
TUN OUT: f_tun_ion f_naf_tun
NAF OUT: f_naf_tun f_mao_naf
MAO OUT: f_mao_naf SW f_nao_mao

# ---- northern seas
NAO NWG: cly_nao_nwg -7,61 -8,66 f_nao_nwg
NWG BAR: nwy_nwg_bar 22,73 f_nwg_bar
NWG NTH: edi_nth_nwg 0,60 nwy_nwg_nth
NTH SKA: nwy_nth_ska den_ska_nth
NTH HEL: den_nth_hel 6.5,54.5 hol_hel_nth
NTH ENG: lon_eng_nth bel_eng_nth
NAO IRI: lvp_nao_iri -5.5,54.4 -8.0,53.0 -10.3,52.0 iri_nao_mao
NAO MAO: iri_nao_mao -15.0,51.5 f_nao_mao
IRI MAO: iri_nao_mao -8.5,50.0 iri_eng_mao
IRI ENG: iri_eng_mao wal_eng_iri
ENG MAO: iri_eng_mao -5.3,48.9 bre_eng_mao
BOT BAL: lvn_bot_bal 21.0,59.7 swe_bot_bal

# ---- British coasts
CLY NWG: cly_nao_nwg cly_edi_nwg
EDI NWG: cly_edi_nwg -4.0,58.57 -3.4,58.68 edi_nth_nwg
EDI NTH: edi_nth_nwg -3.05,58.45 -3.3,58.3 -3.8,57.85 -3.9,57.6 -3.2,57.7 -2.0,57.7 -1.78,57.5 -2.05,57.15 -2.45,56.7 -2.8,56.45 -2.6,56.28 -3.0,56.05 -2.5,56.0 -2.15,55.92 -2.0,55.77 edi_yor_nth
YOR NTH: edi_yor_nth -1.4,55.0 -1.2,54.65 -0.6,54.5 -0.1,54.12 0.12,53.58 0.35,53.15 lon_yor_nth
LON NTH: lon_yor_nth 0.4,52.95 1.3,52.93 1.7,52.75 1.75,52.5 1.3,51.95 0.8,51.7 0.9,51.5 lon_eng_nth
LON ENG: lon_eng_nth 1.35,51.13 0.97,50.92 0.25,50.74 -0.15,50.82 -1.1,50.78 lon_wal_eng
WAL ENG: lon_wal_eng -2.45,50.6 -3.4,50.6 -3.65,50.22 -4.2,50.35 -5.2,49.96 wal_eng_iri
WAL IRI: wal_eng_iri -5.0,50.45 -4.5,51.0 -3.5,51.2 -2.9,51.5 -3.2,51.45 -4.1,51.55 -5.2,51.7 -5.3,51.9 -4.5,52.2 -4.1,52.55 -4.8,52.8 -4.3,53.2 -4.6,53.35 -3.85,53.33 lvp_wal_iri
LVP IRI: lvp_wal_iri -3.0,53.45 -3.05,53.8 -2.9,54.05 -3.3,54.2 lvp_nao_iri
LVP NAO: lvp_nao_iri -3.5,54.65 -3.6,54.95 -4.4,54.75 -4.85,54.65 -5.1,54.9 cly_lvp_nao
CLY NAO: cly_lvp_nao -4.65,55.45 -4.9,55.9 -5.4,55.5 -5.8,55.3 -5.5,56.4 -6.2,56.7 -5.7,57.1 -6.4,57.4 -5.8,57.5 -5.3,57.9 -5.2,58.2 cly_nao_nwg

# ---- British land
CLY EDI: cly_edi_nwg -4.6,57.9 -4.5,57.2 -4.3,56.5 -4.0,56.0 cly_edi_lvp
CLY LVP: cly_edi_lvp -4.3,55.3 cly_lvp_nao
EDI LVP: cly_edi_lvp edi_lvp_yor
EDI YOR: edi_lvp_yor -2.0,55.3 edi_yor_nth
LVP YOR: edi_lvp_yor -2.1,54.4 -1.85,53.8 lvp_wal_yor
LVP WAL: lvp_wal_yor -2.8,53.2 lvp_wal_iri
WAL YOR: lvp_wal_yor -1.7,52.6 wal_yor_lon
LON YOR: wal_yor_lon -0.5,52.6 lon_yor_nth
LON WAL: wal_yor_lon -1.9,51.5 lon_wal_eng

# ---- French and Low Countries coasts
BRE ENG: bre_eng_mao -4.6,48.62 -4.0,48.72 -3.05,48.85 -2.75,48.55 -2.0,48.65 -1.5,48.65 -1.6,49.2 -1.95,49.72 -1.25,49.7 -0.3,49.3 bre_pic_eng
BRE MAO: bre_eng_mao -4.55,48.2 -4.73,48.03 -4.35,47.8 -3.4,47.7 -3.1,47.5 bre_gas_mao
GAS MAO: bre_gas_mao -2.0,46.8 -1.8,46.5 -1.15,46.15 -1.2,45.6 -1.25,44.65 -1.5,43.5 gas_spa_mao
PIC ENG: bre_pic_eng 0.1,49.5 0.4,49.77 1.1,49.93 1.55,50.2 1.6,50.7 1.85,50.95 pic_bel_eng
BEL ENG: pic_bel_eng bel_eng_nth
BEL NTH: bel_eng_nth bel_hol_nth
HOL NTH: bel_hol_nth 3.7,51.7 4.1,51.98 4.3,52.1 4.6,52.45 4.75,52.95 hol_hel_nth
HOL HEL: hol_hel_nth 6.2,53.45 6.9,53.35 hol_kie_hel
KIE HEL: hol_kie_hel 7.2,53.65 8.1,53.55 8.5,53.55 8.7,53.87 8.9,54.0 8.6,54.3 8.85,54.4 8.55,54.95 den_kie_hel
DEN HEL: den_kie_hel 8.4,55.45 den_nth_hel
DEN NTH: den_nth_hel 8.1,55.9 8.15,56.6 den_ska_nth
DEN SKA: den_ska_nth 9.9,57.6 10.6,57.75 10.55,57.45 10.3,56.95 10.95,56.45 10.6,56.2 10.2,56.1 10.1,55.8 10.6,55.55 11.1,55.65 11.3,55.98 12.2,56.12 den_swe_ska
DEN BAL: den_kie_bal 10.0,55.1 10.6,55.0 10.9,54.8 11.2,54.65 12.0,54.6 12.5,54.95 12.45,55.3 12.7,55.6 den_swe_bal
DEN SWE: den_swe_bal den_swe_ska
DEN KIE: den_kie_hel 9.2,55.4 den_kie_bal
KIE BAL: den_kie_bal 9.9,54.85 10.2,54.4 11.0,54.45 10.9,54.0 11.5,53.95 kie_ber_bal
BER BAL: kie_ber_bal 12.1,54.18 12.6,54.45 13.3,54.65 13.7,54.3 14.2,53.95 15.5,54.15 ber_pru_bal
PRU BAL: ber_pru_bal 17.5,54.8 18.4,54.8 18.65,54.4 19.5,54.4 19.9,54.65 19.95,54.95 21.1,55.2 pru_lvn_bal
LVN BAL: pru_lvn_bal 21.0,56.5 21.55,57.4 22.6,57.75 23.2,57.0 24.1,57.0 24.4,57.6 24.4,58.35 23.6,58.6 lvn_bot_bal
LVN BOT: lvn_bot_bal 23.5,59.25 24.75,59.45 26.5,59.55 stp_lvn_bot
STP BOT: stp_lvn_bot 28.1,59.7 29.0,59.85 29.8,59.85 30.1,60.0 29.7,60.2 29.2,60.35 fin_stp_bot
FIN BOT: fin_stp_bot 28.0,60.5 26.9,60.45 25.0,60.15 23.0,59.85 22.3,60.4 21.4,60.8 21.5,61.5 21.3,62.3 21.6,63.1 23.1,63.85 24.4,64.7 25.4,65.0 fin_swe_bot
SWE BOT: fin_swe_bot 22.1,65.55 21.2,64.7 20.3,63.8 18.7,63.3 17.4,62.4 17.2,61.7 17.2,60.7 18.6,60.3 swe_bot_bal
SWE BAL: swe_bot_bal 18.9,59.5 17.5,58.7 16.6,57.7 16.4,56.7 15.9,56.15 14.7,56.15 14.2,55.4 13.8,55.4 12.95,55.35 den_swe_bal
SWE SKA: den_swe_ska 12.85,56.65 12.25,57.1 11.85,57.7 11.4,58.3 nwy_swe_ska
NWY SKA: nwy_swe_ska 10.9,59.2 10.6,59.85 10.2,59.0 9.5,58.9 8.0,58.1 nwy_nth_ska
NWY NTH: nwy_nth_ska 6.5,58.2 5.6,58.9 5.3,59.3 5.0,60.4 nwy_nwg_nth
NWY NWG: nwy_nwg_nth 5.1,62.2 6.1,62.5 7.7,63.1 9.8,63.8 11.0,64.9 12.5,66.0 14.4,67.3 13.5,68.1 16.0,69.3 19.0,70.0 nwy_nwg_bar
NWY BAR: nwy_nwg_bar 25.8,71.15 28.5,70.9 31.0,70.4 nwy_stp_bar
STP BAR: nwy_stp_bar 33.0,69.4 36.5,69.1 40.0,68.1 41.2,66.9 39.0,66.2 35.0,66.6 34.8,65.2 37.0,64.2 40.5,64.6 43.5,66.2 44.0,68.5 47.0,67.7 53.0,68.5 f_bar_stp

# ---- land, north and east
NWY SWE: nwy_swe_ska 12.2,60.0 12.5,61.5 12.2,62.5 12.1,63.7 14.0,64.5 14.5,66.0 16.5,67.6 18.2,68.5 nwy_swe_fin
NWY FIN: nwy_swe_fin 23.0,68.7 25.5,69.5 27.5,69.9 nwy_fin_stp
NWY STP: nwy_fin_stp nwy_stp_bar
FIN SWE: nwy_swe_fin 22.4,68.45 23.7,67.4 23.9,66.6 fin_swe_bot
FIN STP: nwy_fin_stp 29.5,67.5 30.0,66.0 29.8,64.5 31.0,63.0 31.5,62.0 29.5,61.2 fin_stp_bot
LVN STP: stp_lvn_bot 28.3,58.2 lvn_stp_mos
STP MOS: lvn_stp_mos 33.0,57.9 38.0,58.6 44.0,59.3 50.0,60.0 f_stp_mos
LVN MOS: lvn_stp_mos 29.0,56.2 lvn_mos_war
LVN WAR: lvn_mos_war 26.0,54.9 24.0,54.5 lvn_war_pru
LVN PRU: lvn_war_pru 22.3,55.0 21.6,55.5 pru_lvn_bal
PRU WAR: lvn_war_pru 21.0,53.5 19.5,53.2 pru_war_sil
PRU SIL: pru_war_sil ber_pru_sil
BER PRU: ber_pru_sil 16.2,53.8 ber_pru_bal
BER SIL: ber_pru_sil 15.2,52.3 ber_mun_sil
BER MUN: ber_mun_sil 12.3,52.0 kie_mun_ber
BER KIE: kie_mun_ber 11.6,53.3 kie_ber_bal
KIE MUN: kie_mun_ber 9.5,52.0 ruh_kie_mun
KIE RUH: ruh_kie_mun 7.5,52.3 hol_ruh_kie
HOL KIE: hol_ruh_kie 7.1,52.9 hol_kie_hel
MUN RUH: ruh_kie_mun 8.8,51.0 bur_ruh_mun
BUR RUH: bur_ruh_mun 6.6,50.0 bel_ruh_bur
BEL RUH: bel_ruh_bur 6.1,50.8 bel_hol_ruh
HOL RUH: bel_hol_ruh 6.3,51.9 hol_ruh_kie
BEL HOL: bel_hol_nth 4.3,51.4 5.0,51.45 5.8,51.15 bel_hol_ruh
BEL BUR: bel_ruh_bur 5.5,49.55 4.8,49.8 pic_bur_bel
BEL PIC: pic_bur_bel 3.1,50.7 pic_bel_eng
PIC BUR: pic_bur_bel pic_par_bur
PIC PAR: pic_par_bur 1.8,49.3 bre_pic_par
BRE PIC: bre_pic_par 0.4,49.3 bre_pic_eng
BRE PAR: bre_pic_par 0.3,48.2 bre_par_gas
BRE GAS: bre_par_gas -1.2,47.3 bre_gas_mao
GAS PAR: bre_par_gas 1.2,47.3 par_gas_bur
BUR PAR: par_gas_bur 3.3,48.3 pic_par_bur
BUR GAS: par_gas_bur 3.0,46.3 gas_bur_mar
GAS MAR: gas_bur_mar 2.8,44.5 1.8,43.6 gas_mar_spa
GAS SPA: gas_spa_mao -0.5,42.8 gas_mar_spa
MAR SPA: gas_mar_spa 2.5,42.4 mar_spa_lyo
BUR MAR: gas_bur_mar 5.0,45.8 bur_mar_swi
MAR SWI: bur_mar_swi mar_pie_swi
MAR PIE: mar_pie_swi 7.0,45.0 6.9,44.3 mar_pie_lyo
BUR SWI: bur_mar_swi 6.1,46.6 6.9,47.4 bur_mun_swi
BUR MUN: bur_mun_swi 7.9,48.5 bur_ruh_mun
MUN SWI: bur_mun_swi 8.6,47.75 swi_mun_tyr
SWI TYR: swi_mun_tyr 10.4,46.8 swi_tyr_pie
PIE SWI: swi_tyr_pie 8.1,46.0 mar_pie_swi
PIE TYR: swi_tyr_pie pie_tyr_ven
PIE VEN: pie_tyr_ven 9.8,45.0 pie_ven_tus
PIE TUS: pie_ven_tus pie_tus_lyo
TUS VEN: pie_ven_tus 11.2,44.2 tus_ven_rom
ROM TUS: tus_ven_rom 11.9,42.9 tus_rom_tys
ROM VEN: tus_ven_rom rom_ven_apu
APU VEN: rom_ven_apu ven_apu_adr
APU ROM: rom_ven_apu 14.0,42.0 rom_apu_nap
NAP ROM: rom_apu_nap rom_nap_tys
APU NAP: rom_apu_nap 15.2,40.9 15.9,40.3 nap_apu_ion
TRI VEN: ven_tri_adr 13.6,46.2 ven_tri_tyr
TYR VEN: ven_tri_tyr 11.8,46.2 10.6,46.1 pie_tyr_ven
TRI TYR: ven_tri_tyr tyr_tri_vie
TRI VIE: tyr_tri_vie 15.6,46.9 tri_vie_bud
BUD TRI: tri_vie_bud 17.5,46.1 18.8,45.6 tri_bud_ser
SER TRI: tri_bud_ser 19.4,44.0 19.6,43.0 tri_ser_alb
ALB TRI: tri_ser_alb 19.6,42.4 tri_alb_adr
ALB SER: tri_ser_alb 20.6,41.9 alb_ser_gre
ALB GRE: alb_ser_gre 20.6,40.4 alb_gre_ion
TYR VIE: tyr_tri_vie 13.8,47.8 tyr_vie_boh
BOH TYR: tyr_vie_boh mun_boh_tyr
MUN TYR: mun_boh_tyr 12.8,47.7 11.0,47.4 swi_mun_tyr
BOH VIE: tyr_vie_boh 15.5,48.9 boh_vie_gal
GAL VIE: boh_vie_gal vie_gal_bud
BUD VIE: vie_gal_bud 17.2,47.8 16.4,47.3 tri_vie_bud
BOH GAL: boh_vie_gal boh_gal_sil
BOH SIL: boh_gal_sil 16.5,50.4 15.0,50.9 boh_sil_mun
BOH MUN: boh_sil_mun 12.5,50.3 12.6,49.5 mun_boh_tyr
MUN SIL: boh_sil_mun ber_mun_sil
GAL SIL: boh_gal_sil sil_gal_war
SIL WAR: sil_gal_war 19.0,51.6 pru_war_sil
GAL WAR: sil_gal_war 21.5,50.4 23.5,50.5 gal_war_ukr
GAL UKR: gal_war_ukr 26.0,49.5 gal_ukr_rum
GAL RUM: gal_ukr_rum 25.0,47.8 gal_rum_bud
BUD GAL: gal_rum_bud 22.0,48.5 20.0,48.7 vie_gal_bud
BUD RUM: gal_rum_bud 25.5,47.0 26.0,45.8 25.0,45.4 23.0,45.1 bud_rum_ser
BUD SER: bud_rum_ser 21.0,44.9 tri_bud_ser
RUM SER: bud_rum_ser ser_rum_bul
BUL RUM: ser_rum_bul 25.0,43.7 26.5,44.0 27.7,44.0 rum_bul_bla
BUL SER: ser_rum_bul 22.7,43.0 22.5,42.3 ser_bul_gre
GRE SER: ser_bul_gre 21.5,41.3 alb_ser_gre
BUL GRE: ser_bul_gre 23.5,41.3 24.2,41.2 bul_gre_aeg
BUL CON: bul_con_aeg 26.1,41.4 26.7,41.9 27.6,42.1 bul_con_bla
RUM SEV: rum_sev_bla 29.0,46.6 rum_sev_ukr
RUM UKR: rum_sev_ukr 27.4,48.2 gal_ukr_rum
SEV UKR: rum_sev_ukr 31.0,48.0 34.0,48.8 sev_ukr_mos
MOS UKR: sev_ukr_mos 33.0,51.8 30.5,52.2 ukr_mos_war
UKR WAR: ukr_mos_war 26.3,51.8 gal_war_ukr
MOS WAR: ukr_mos_war 28.5,53.8 lvn_mos_war
MOS SEV: sev_ukr_mos 40.0,51.0 45.0,51.5 f_mos_sev
ARM SEV: arm_sev_bla 43.5,41.6 f_sev_arm
ANK CON: con_ank_bla 30.5,40.4 con_ank_smy
CON SMY: con_ank_smy 28.5,39.85 27.2,39.95 con_smy_aeg
ANK SMY: con_ank_smy 31.5,39.7 33.5,39.5 ank_smy_arm
ANK ARM: ank_smy_arm 36.5,40.5 ank_arm_bla
ARM SMY: ank_smy_arm smy_syr_arm
ARM SYR: smy_syr_arm 40.0,37.8 42.5,37.4 f_arm_syr
SMY SYR: smy_syr_eas 35.8,37.4 smy_syr_arm

# ---- south-eastern coasts
ALB ADR: tri_alb_adr 19.35,41.85 19.45,41.3 19.4,40.85 alb_ion_adr
ALB ION: alb_ion_adr 19.8,40.0 alb_gre_ion
TRI ADR: ven_tri_adr 13.75,45.65 13.6,45.2 13.85,44.85 14.4,45.3 14.9,44.9 15.2,44.1 15.9,43.7 16.45,43.5 17.4,43.0 18.1,42.64 18.6,42.4 tri_alb_adr
VEN ADR: ven_tri_adr 12.9,45.65 12.3,45.3 12.5,44.95 12.3,44.5 12.57,44.06 13.52,43.62 ven_apu_adr
APU ADR: ven_apu_adr 15.0,42.0 15.6,41.95 16.19,41.9 15.9,41.6 16.0,41.45 16.87,41.13 17.95,40.64 apu_ion_adr
APU ION: apu_ion_adr 18.36,39.8 18.0,40.05 17.2,40.45 nap_apu_ion
NAP ION: nap_apu_ion 16.6,39.7 17.2,39.4 17.2,38.9 16.6,38.4 16.1,37.9 nap_tys_ion
NAP TYS: nap_tys_ion 15.65,38.2 15.8,38.7 15.85,39.3 15.6,39.9 15.0,40.2 14.8,40.65 14.35,40.6 14.25,40.83 rom_nap_tys
ROM TYS: rom_nap_tys 13.05,41.23 12.3,41.73 11.8,42.1 tus_rom_tys
TUS TYS: tus_rom_tys 11.1,42.45 10.5,42.95 tus_lyo_tys
TUS LYO: tus_lyo_tys 10.3,43.55 pie_tus_lyo
PIE LYO: pie_tus_lyo 9.5,44.2 8.93,44.41 8.2,43.9 mar_pie_lyo
MAR LYO: mar_pie_lyo 7.3,43.7 6.7,43.25 5.9,43.1 5.35,43.3 4.5,43.45 3.7,43.4 3.2,43.15 3.05,42.75 mar_spa_lyo
SPA LYO: mar_spa_lyo 3.3,42.3 3.2,41.9 2.2,41.4 1.25,41.1 spa_lyo_wes
SPA WES: spa_lyo_wes 0.0,39.9 -0.3,39.45 0.2,38.75 -0.5,38.35 -0.7,37.65 -0.95,37.6 -1.6,37.3 -2.2,36.73 -2.45,36.83 -3.0,36.75 -4.4,36.7 spa_mao_wes
SPA MAO: spa_mao_wes -5.6,36.0 -6.3,36.5 -6.4,36.8 -7.0,37.2 spa_por_mao_s
POR MAO: spa_por_mao_s -7.9,37.0 -9.0,37.0 -8.85,37.95 -8.9,38.5 -9.5,38.8 -9.4,39.35 -8.9,40.2 -8.65,41.15 spa_por_mao_n
POR SPA: spa_por_mao_n -8.1,42.0 -6.6,41.95 -6.9,41.0 -7.0,39.6 -7.3,38.5 spa_por_mao_s
SPA MAO: spa_por_mao_n -8.8,42.25 -9.1,42.6 -9.3,42.9 -9.2,43.2 -8.4,43.38 -7.9,43.77 -7.0,43.55 -5.85,43.65 -3.8,43.45 -2.95,43.4 gas_spa_mao
MAO WES: spa_mao_wes naf_mao_wes
NAF MAO: naf_mao_wes -5.9,35.8 -6.15,35.2 -6.85,34.0 -7.6,33.6 -8.5,33.25 -9.25,32.3 f_mao_naf
NAF WES: naf_mao_wes -5.3,35.9 -4.5,35.2 -2.95,35.3 -0.65,35.75 0.5,36.2 3.05,36.78 5.1,36.75 5.8,36.8 naf_tun_wes
NAF TUN: naf_tun_wes 8.3,35.5 8.0,34.0 f_naf_tun
TUN WES: naf_tun_wes 8.75,36.95 9.85,37.3 tun_wes_tys
TUN TYS: tun_wes_tys 10.3,36.9 tun_tys_ion
TUN ION: tun_tys_ion 10.6,36.4 10.8,35.8 11.1,35.2 10.75,34.75 10.1,33.9 10.9,33.7 11.3,33.5 f_tun_ion
LYO WES: spa_lyo_wes 4.0,40.0 lyo_wes_tys
LYO TYS: lyo_wes_tys 9.2,41.3 9.3,42.5 tus_lyo_tys
WES TYS: lyo_wes_tys 9.5,38.3 tun_wes_tys
ION TYS: tun_tys_ion nap_tys_ion
ION ADR: apu_ion_adr alb_ion_adr
GRE ION: alb_gre_ion 20.2,39.4 20.7,39.0 21.1,38.5 21.3,38.2 21.6,37.5 21.9,36.8 gre_aeg_ion
GRE AEG: gre_aeg_ion 23.2,36.45 23.1,37.6 23.5,37.95 24.0,37.65 24.0,38.2 23.3,39.0 22.95,39.35 22.6,40.3 22.9,40.6 23.7,40.2 23.9,40.7 bul_gre_aeg
ION AEG: gre_aeg_ion aeg_ion_eas
ION EAS: aeg_ion_eas 23.5,34.0 f_ion_eas
AEG EAS: aeg_ion_eas 26.5,35.3 28.0,36.2 smy_aeg_eas
BUL AEG: bul_gre_aeg 24.8,40.9 25.3,40.95 bul_con_aeg
CON AEG: bul_con_aeg 26.2,40.8 26.1,40.3 26.2,40.05 26.3,40.0 con_smy_aeg
SMY AEG: con_smy_aeg 26.1,39.5 26.7,39.3 26.9,38.7 26.3,38.3 27.0,38.45 27.3,37.9 27.25,37.3 27.4,37.0 smy_aeg_eas
SMY EAS: smy_aeg_eas 29.1,36.6 29.7,36.2 30.5,36.3 30.7,36.9 31.8,36.6 32.8,36.05 33.8,36.2 smy_syr_eas
SYR EAS: smy_syr_eas 35.5,36.6 36.1,36.6 35.8,36.0 35.75,35.5 35.85,34.45 35.5,33.9 35.1,33.1 35.0,32.8 34.85,32.3 34.45,31.5 f_syr_eas
BUL BLA: rum_bul_bla 28.45,43.35 27.95,43.2 27.7,42.7 27.5,42.5 27.85,42.3 bul_con_bla
CON BLA: bul_con_bla 28.6,41.35 29.05,41.2 29.9,41.15 con_ank_bla
ANK BLA: con_ank_bla 31.4,41.3 31.8,41.5 32.6,41.85 33.5,42.0 35.1,42.05 35.9,41.7 36.33,41.3 ank_arm_bla
ARM BLA: ank_arm_bla 38.3,40.95 39.7,41.0 40.8,41.2 arm_sev_bla
SEV BLA: arm_sev_bla 41.65,42.15 41.0,43.0 39.7,43.6 38.5,44.3 37.8,44.7 37.0,45.05 36.85,45.2 37.2,45.35 37.7,45.7 38.1,46.3 38.5,46.7 39.25,47.2 38.3,47.1 37.3,47.0 36.2,46.7 35.3,46.35 34.95,46.1 35.2,45.75 35.45,45.35 36.0,45.45 36.45,45.4 36.4,45.2 35.4,45.05 34.4,44.55 33.5,44.55 33.4,45.2 32.5,45.4 33.3,45.8 33.6,46.1 32.6,46.55 31.6,46.6 30.75,46.45 rum_sev_bla
RUM BLA: rum_sev_bla 29.7,45.3 29.6,44.8 28.65,44.15 rum_bul_bla
"""

SPACES = {
    "ADR": {"xy": "15.4,42.9"},
    "AEG": {"xy": "25.2,38.6"},
    "ALB": {"xy": "20.0,41.0"},
    "ANK": {"xy": "34.01,40.64", "centre": "31.86,40.25"},
    "APU": {"xy": "16.04,40.96"},
    "ARM": {"xy": "40.5,39.8"},
    "BAL": {"xy": "17.5,55.5"},
    "BAR": {"xy": "41.89,69.88"},
    "BEL": {"xy": "5.17,50.49", "centre": "3.98,50.9"},
    "BER": {"xy": "13.02,53.06", "centre": "13.92,52.34"},
    "BLA": {"xy": "33.5,43.2"},
    "BOH": {"xy": "14.8,49.8"},
    "BOT": {"xy": "19.5,62.3"},
    "BRE": {"xy": "-1.32,48.06", "centre": "-3.29,48.21"},
    "BUD": {"xy": "20.5,47.2", "centre": "19.05,47.5"},
    "BUL": {"xy": "25.3,42.7", "centre": "23.3,42.7", "coast": {"EC": "27.3,43.0", "SC": "25.2,41.3"}},
    "BUR": {"xy": "4.8,47.3"},
    "CLY": {"xy": "-5.09,56.79"},
    "CON": {"xy": "27.01,41.47", "centre": "29.86,40.34"},
    "DEN": {"xy": "9.3,56.2", "centre": "12.3,55.6"},
    "EAS": {"xy": "31.5,34.5"},
    "EDI": {"xy": "-3.2,56.9", "centre": "-3.46,56.11"},
    "ENG": {"xy": "-2.5,49.9"},
    "FIN": {"xy": "26.5,63.0"},
    "GAL": {"xy": "23.0,49.5"},
    "GAS": {"xy": "0.3,44.8"},
    "GRE": {"xy": "22.0,39.5", "centre": "23.14,38.37"},
    "HEL": {"xy": "7.4,54.4"},
    "HOL": {"xy": "5.91,52.54", "centre": "5.02,52.2"},
    "ION": {"xy": "18.5,37.0"},
    "IRI": {"xy": "-7.5,51.1"},
    "KIE": {"xy": "9.6,53.22", "centre": "10.25,54.03"},
    "LON": {"xy": "-0.42,51.62", "centre": "0.76,51.31"},
    "LVN": {"xy": "25.0,56.8"},
    "LVP": {"xy": "-2.83,54.52", "centre": "-2.66,53.75"},
    "LYO": {"xy": "5.0,42.2"},
    "MAO": {"xy": "-12.5,44.0"},
    "MAR": {"xy": "5.01,44.55", "centre": "5.92,43.65"},
    "MOS": {"xy": "38.07,54.4", "centre": "37.6,55.75"},
    "MUN": {"xy": "11.0,49.5", "centre": "11.58,48.14"},
    "NAF": {"xy": "1.0,34.5"},
    "NAO": {"xy": "-16.0,56.0"},
    "NAP": {"xy": "16.4,39.1", "centre": "14.81,40.88"},
    "NTH": {"xy": "3.0,56.0"},
    "NWG": {"xy": "3.0,66.0"},
    "NWY": {"xy": "8.89,61.29", "centre": "10.36,60.15"},
    "PAR": {"xy": "1.82,48.06", "centre": "2.37,48.82"},
    "PIC": {"xy": "2.1,49.9"},
    "PIE": {"xy": "8.2,45.0"},
    "POR": {"xy": "-8.37,39.73", "centre": "-8.62,38.72"},
    "PRU": {"xy": "20.0,53.8"},
    "ROM": {"xy": "13.0,42.66", "centre": "12.65,41.99"},
    "RUH": {"xy": "7.2,51.1"},
    "RUM": {"xy": "26.3,45.3", "centre": "26.1,44.43"},
    "SER": {"xy": "21.0,43.6", "centre": "20.64,44.54"},
    "SEV": {"xy": "40.17,48.1", "centre": "34.14,45.11"},
    "SIL": {"xy": "17.0,51.0"},
    "SKA": {"xy": "11.4,57.2"},
    "SMY": {"xy": "30.0,38.5", "centre": "27.68,38.46"},
    "SPA": {"xy": "-3.03,41.05", "centre": "-3.7,40.4", "coast": {"NC": "-5.0,42.9", "SC": "-3.0,37.3"}},
    "STP": {"xy": "38.53,63.22", "centre": "30.91,59.82", "coast": {"NC": "35.0,68.3", "SC": "30.5,60.5"}},
    "SWE": {"xy": "15.0,61.0", "centre": "18.07,59.33"},
    "SWI": {"xy": "8.2,46.8"},
    "SYR": {"xy": "38.0,35.0"},
    "TRI": {"xy": "16.8,44.9", "centre": "14.65,45.91"},
    "TUN": {"xy": "9.5,35.0", "centre": "9.99,36.29"},
    "TUS": {"xy": "11.2,43.4"},
    "TYR": {"xy": "12.3,47.2"},
    "TYS": {"xy": "11.8,40.0"},
    "UKR": {"xy": "31.0,49.8"},
    "VEN": {"xy": "11.01,45.07", "centre": "11.91,45.59"},
    "VIE": {"xy": "15.5,48.0", "centre": "16.37,48.21"},
    "WAL": {"xy": "-3.6,52.0"},
    "WAR": {"xy": "22.0,52.2", "centre": "21.0,52.23"},
    "WES": {"xy": "3.5,38.2"},
    "YOR": {"xy": "-1.3,53.8"},
}

DECOR = [
    {"name": "Ireland", "kind": "land", "points":
        "-7.4,55.4 -6.2,55.2 -5.9,54.6 -5.5,54.35 -6.3,54.0 -6.1,53.35 -6.0,52.95 -6.35,52.17 -7.0,52.15 "
        "-8.3,51.8 -9.8,51.45 -10.4,52.1 -9.8,52.6 -9.2,53.2 -10.2,53.4 -10.1,54.0 -8.6,54.3 -8.8,54.7 "
        "-8.3,55.15"},
    {"name": "Iceland", "kind": "land", "points":
        "-22.0,64.0 -21.5,65.0 -22.5,65.6 -21.0,66.2 -18.5,66.1 -16.0,66.5 -14.5,66.3 -14.6,65.3 "
        "-13.6,65.0 -15.0,64.3 -18.0,63.4 -20.5,63.7"},
    {"name": "Corsica", "kind": "land", "points":
        "9.4,43.0 9.55,42.1 9.2,41.4 8.75,41.6 8.6,42.2 8.6,42.6"},
    {"name": "Sardinia", "kind": "land", "points":
        "9.2,41.25 9.8,40.9 9.65,39.2 9.0,39.1 8.5,38.9 8.4,39.7 8.5,40.6 8.2,40.9"},
    {"name": "Sicily", "kind": "land", "points":
        "12.4,38.15 13.4,38.25 14.5,38.05 15.45,38.3 15.2,37.5 15.1,36.7 14.3,36.75 13.0,37.45 12.45,37.75"},
    {"name": "Crete", "kind": "land", "points":
        "23.55,35.6 24.2,35.55 25.5,35.35 26.3,35.25 26.2,35.0 24.8,34.95 23.6,35.2"},
    {"name": "Cyprus", "kind": "land", "points":
        "32.3,35.1 33.0,35.4 34.6,35.7 34.0,35.0 33.0,34.6 32.4,34.7"},
    {"name": "Rhodes", "kind": "land", "points":
        "27.7,36.2 28.25,36.45 28.1,35.9"},
    {"name": "Majorca", "kind": "land", "points":
        "2.35,39.6 3.1,39.95 3.45,39.7 3.25,39.35 2.7,39.5"},
    {"name": "Gotland", "kind": "land", "points":
        "18.1,57.0 18.7,57.9 19.2,57.8 18.6,57.2 18.3,56.9"},
    {"name": "Sea of Marmara", "kind": "water", "points":
        "26.2,40.05 26.7,40.45 27.5,40.95 28.6,41.0 29.0,41.05 29.05,41.2 29.15,41.19 29.1,41.0 "
        "29.4,40.75 29.9,40.72 29.0,40.4 28.0,40.35 27.3,40.4 26.8,40.3 26.3,40.0"},
]
