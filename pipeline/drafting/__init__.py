"""The drafting room: what may be published, decided by code before any reader sees a note.

A write is parsed once into a `draft.Draft`; `context.DraftContext` is what it is checked
against; `rules.RULES` are the rules (each a function under its row, with what the benchmark
measured of it: `measured`); `repair` removes what may be removed; `support` bears sentences
out by code or asks the model; `decide.decide` is the decision on top. The words, the text
policy (`tokens`, `directives`, `policy`) and a sentence's stance to a claim (`stance`) live
here too; `writing.Drafting` is the episode's writing step.
"""
