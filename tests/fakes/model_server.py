"""The tests' scripted model server is the package's latency-simulating one."""

from bot.bench.simulator import Raw
from bot.bench.simulator import SimulatedModelServer as ScriptedModelServer

__all__ = ["Raw", "ScriptedModelServer"]
