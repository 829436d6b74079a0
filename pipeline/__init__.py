"""The episode: one post in, one verified note or a reasoned abstention out.

Nothing here imports an adapter, the bot, or any outside-system client; the outside world is
reached only through the ports in :mod:`pipeline.ports`.
"""
