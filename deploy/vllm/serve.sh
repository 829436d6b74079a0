#!/usr/bin/env bash
# Start vLLM's OpenAI-compatible server for EvoNote on one GPU.
#   deploy/vllm/serve.sh [MODEL]      (default: google/medgemma-27b-text-it, the paper's model)
# Then: export EVONOTE_LLM__BASE_URL=http://HOST:8000/v1
# Structured outputs (response_format json_schema) are on by default in current vLLM; prefix
# caching helps because every agent turn repeats the same system prompt and post.
set -euo pipefail
MODEL="${1:-${EVONOTE_VLLM_MODEL:-google/medgemma-27b-text-it}}"
PORT="${EVONOTE_VLLM_PORT:-8000}"
exec vllm serve "$MODEL" \
  --host 0.0.0.0 --port "$PORT" \
  --dtype bfloat16 \
  --max-model-len "${EVONOTE_VLLM_MAX_LEN:-32768}" \
  --gpu-memory-utilization "${EVONOTE_VLLM_GPU_UTIL:-0.90}" \
  --max-num-seqs "${EVONOTE_VLLM_MAX_SEQS:-64}" \
  --enable-prefix-caching \
  --generation-config vllm
