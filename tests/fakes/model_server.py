"""The tests' scripted model server is the package's latency-simulating one."""

from bot.simulator.server import Raw
from bot.simulator.server import SimulatedModelServer as ScriptedModelServer

__all__ = ["Raw", "ScriptedModelServer"]
