"""The Gamesmaster is a facade over plain services (issue 24): no mixins, no forwarding, one shared desk."""

import inspect

from gamesmaster.gm import Gamesmaster
from gamesmaster.gm.desk import Desk


def _services(gm: Gamesmaster) -> dict[str, object]:
    return {name: part for name, part in vars(gm).items() if name != "desk"}


def test_the_facade_inherits_nothing_and_forwards_nothing():
    assert Gamesmaster.__mro__ == (Gamesmaster, object)
    assert not hasattr(Gamesmaster, "__getattr__")
    own = {n for n, v in vars(Gamesmaster).items() if not n.startswith("_") and callable(getattr(Gamesmaster, n))}
    assert own == {"open", "close"}  # its own lifecycle only; the work is the services'


def test_each_service_is_a_plain_class_built_on_the_one_desk(store):
    gm = Gamesmaster(store)
    try:
        services = _services(gm)
        assert len(services) >= 8
        for name, part in services.items():
            assert type(part).__mro__ == (type(part), object), f"gm.{name} inherits {type(part).__mro__[1:]}"
            assert type(part).__module__.startswith("gamesmaster.gm."), name
            # each holds the services it calls by name, never the facade that would let it reach any of them
            assert not any(value is gm for value in vars(part).values()), f"gm.{name} holds the Gamesmaster"
            desks = [v for v in vars(part).values() if isinstance(v, Desk)]
            assert all(d is gm.desk for d in desks), f"gm.{name} has a desk of its own: its memo is not shared"
    finally:
        gm.close()


def test_every_public_method_of_a_service_is_typed_and_says_what_it_does(store):
    gm = Gamesmaster(store)
    try:
        for name, part in _services(gm).items():
            for method_name, method in inspect.getmembers(type(part), inspect.isfunction):
                if method_name.startswith("_"):
                    continue
                assert method.__doc__, f"gm.{name}.{method_name} has no docstring"
                assert "return" in method.__annotations__, f"gm.{name}.{method_name} has no return type"
    finally:
        gm.close()
