"""A stand-in for a model server (`evonote bench simulate`, and the tests' scripted server):
schema-valid, canned answers after a simulated latency. It knows nothing: what is measured
with it is the bot, never a model."""
