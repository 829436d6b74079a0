"""How long a real model server takes: prefill, decode that slows as the batch grows, and
realistic output lengths per call type (#16's honest simulator, the model-server half).

A scripted answer is ~60 tokens whatever the call; a real model writes ~400 for a claim
analysis and ~100 for a rating form, and decoding is most of an episode's time. The profile
charges those lengths, not the scripted text's, and reports them as `completion_tokens`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

# Output tokens per structured-output schema (the class name sent as json_schema.name); ""
# is a plain answer (the image caption). Measured shapes of MedGemma-27B answers.
OUTPUT_TOKENS_27B: Mapping[str, int] = {
    "": 60,
    # the lean brief (≤3 claims, ≤4 gaps of one sentence); the ≤5-claim, ≤6-gap form took ~400
    "VerificationBrief": 300,
    "AgentTurn": 100,  # a one-sentence thought (≤240 characters; the 800-character one: ~120)
    "FinalTurn": 160,
    # relevance and sentence numbers; the form with a summary and copied quotes took ~250
    "PageNotes": 25,
    "SupportVerdicts": 150,
    "RatingForm": 130,  # with a one- or two-sentence rationale
    "NoteClassification": 40,
    "HealthRelevance": 20,
    "JudgeVerdict": 200,
    "DistilledLessons": 250,
    "GateVerdict": 60,
    "PairwiseVerdict": 120,
}


# Measured with bench.real_model on llama.cpp's llama-server, Qwen2.5-Coder-1.5B-Instruct
# Q4_K_M, 2 CPU cores (../shared/realmodel): median output tokens of the answers that finished
# (those cut at their cap retried at twice it). A small model writes more than a 27B one does:
# long thoughts, quotes copied whole, several drafts' worth of support.
OUTPUT_TOKENS_CPU_1_5B: Mapping[str, int] = {
    **OUTPUT_TOKENS_27B,
    "VerificationBrief": 155,
    "AgentTurn": 218,
    "FinalTurn": 358,
    "SupportVerdicts": 67,
}


@dataclass(frozen=True)
class ServerProfile:
    """One model on one accelerator, as the episode sees it."""

    name: str
    prefill_tokens_per_s: float  # prompt tokens per second, one prompt at a time
    decode_tokens_per_s: float  # per sequence, decoding alone
    decode_tokens_per_s_full: float  # per sequence, at `full_batch` sequences
    full_batch: int
    output_tokens: Mapping[str, int] = field(default_factory=lambda: dict(OUTPUT_TOKENS_27B))
    default_output_tokens: int = 150
    jitter: float = 0.25  # output lengths vary ± this share
    # vLLM's automatic prefix caching (on by default): a prompt that begins like a recent one
    # is prefilled only from where they differ.
    prefix_caching: bool = True

    def gpu_seconds(self, prompt_tokens: int, completion_tokens: int) -> tuple[float, float]:
        """The GPU time a call's tokens take: (sharing a full batch, alone). Prefill is the
        same either way; decoding alone holds the GPU for the whole answer, while in a full
        batch it shares it with `full_batch - 1` others."""
        prefill = prompt_tokens / self.prefill_tokens_per_s
        shared = completion_tokens / (self.decode_tokens_per_s_full * self.full_batch)
        alone = completion_tokens / self.decode_tokens_per_s
        return prefill + shared, prefill + alone

    def decode_rate(self, batch: int) -> float:
        """Tokens per second for each of `batch` sequences decoding together: linear from
        alone to a full batch, then the total throughput stays that of the full batch."""
        batch = max(1, batch)
        if batch >= self.full_batch:
            return self.decode_tokens_per_s_full * self.full_batch / batch
        share = (batch - 1) / max(1, self.full_batch - 1)
        return self.decode_tokens_per_s - share * (
            self.decode_tokens_per_s - self.decode_tokens_per_s_full
        )

    def completion_tokens(self, schema: str, rng: random.Random) -> int:
        mean = self.output_tokens.get(schema, self.default_output_tokens)
        return max(1, round(mean * rng.uniform(1 - self.jitter, 1 + self.jitter)))

    def prefill_s(self, prompt_tokens: int) -> float:
        return prompt_tokens / self.prefill_tokens_per_s


PROFILES: Mapping[str, ServerProfile] = {
    # A 27B model (MedGemma-27B, bf16) on one H200 under vLLM.
    "h200-27b": ServerProfile("h200-27b", 7_500, 40, 15, 30),
    # An 8B model on the same card: roughly three times the speed everywhere.
    "h200-8b": ServerProfile("h200-8b", 20_000, 120, 45, 30),
    # The same 1.5B model on 2 CPU cores (llama.cpp, 2 slots): prefill ~62 tokens/s, decode
    # ~18 alone and ~8 per sequence with both slots busy (measured).
    "cpu-1.5b": ServerProfile("cpu-1.5b", 62, 18, 8, 2, output_tokens=dict(OUTPUT_TOKENS_CPU_1_5B)),
}
