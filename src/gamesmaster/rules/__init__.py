"""The rules of Diplomacy: the board, orders, and adjudication. Standard library only."""

from .adjudication import Adjudication, Outcome, adjudicate
from .checking import Checked, OrderCheck, check_orders, powers_to_act, powers_to_choose, still_in_disorder
from .victory import Victory, deadlock, most_units, victory, winner
from .geography import Location, Map, Province, Terrain, UnitType
from .notation import Reading, format_order, parse_order
from .options import OptionError, RuleOptions
from .orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, UnitOrder, Waive
from .phase import Phase, PhaseError
from .position import Dislodgement, Position, PositionError, Unit
from .variant import Power, Variant

__all__ = [
    "Adjudication", "Outcome", "adjudicate", "Checked", "OrderCheck", "check_orders", "powers_to_act", "powers_to_choose", "still_in_disorder", "winner", "deadlock", "most_units", "Victory", "victory", "Location", "Map", "Province", "Terrain",
    "UnitType", "Reading", "format_order", "parse_order", "OptionError", "RuleOptions", "Build",
    "Convoy", "Disband", "Hold", "Move", "Order", "Remove", "Retreat", "Support", "UnitOrder", "Waive", "Phase",
    "PhaseError", "Dislodgement", "Position", "PositionError", "Unit", "Power", "Variant",
]
