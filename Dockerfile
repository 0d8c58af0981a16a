# The cardroom image: the API server (`cardroom serve`) and the Ray head and workers of the
# KubeRay cluster all run it, so that every Ray process has the same Ray, Python and code.
# Build from the repository's root, push, and deploy the digest the push prints
# (docs/operations.md, Deploying on Kubernetes):
#   docker build -t registry.example.com/cardroom:0.1.0 . && docker push registry.example.com/cardroom:0.1.0
#
# Reproducible: the base is pinned by digest (PYTHON_IMAGE); pip and every Python package
# come from requirements/pip.lock and requirements/image.lock, each pinned to one version
# and checked against its hashes (--require-hashes, wheels only), and cardroom itself is
# installed from this tree without dependencies (pip check then confirms the lock meets
# pyproject.toml).  Only the build stage's Debian packages (the C compiler mypyc needs) are
# the base release's current ones, unpinned; none reaches the runtime stage.  Ray's version
# in image.lock must equal the RayCluster's rayVersion (k8s/base/raycluster.yaml), and the
# user below the one the manifests run as: tests/test_image.py checks both.
#
# PYTHON_IMAGE: python:3.11-slim-bookworm as Docker Hub published it on 2026-08-24 (the
# digest of its multi-platform index; Debian 12, Python 3.11).  To move to a newer build,
# take the Digest line of `docker buildx imagetools inspect python:3.11-slim-bookworm`.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91
# numba compiles its kernels for this CPU, with no features beyond the name's, so that the
# kernels compiled into the image (below) serve every node: numba keys a cached kernel by
# its target CPU, and a cache made for the build machine's own CPU would miss on any other.
# x86-64-v2 (SSE4.2, POPCNT) is every x86-64 server CPU since about 2009; for an arm64
# image, build with --build-arg NUMBA_CPU_NAME=generic.
ARG NUMBA_CPU_NAME=x86-64-v2

FROM ${PYTHON_IMAGE} AS build
ARG NUMBA_CPU_NAME
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    NUMBA_CACHE_DIR=/var/cache/cardroom/numba \
    NUMBA_CPU_NAME=${NUMBA_CPU_NAME} \
    NUMBA_CPU_FEATURES=""
# The compiler is the base release's (a version pin would break the build at its next
# security update); it builds the mypyc modules only and stays in this stage.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/cardroom/src
# The locked dependencies first: this layer is rebuilt only when a lock changes.
COPY requirements/pip.lock requirements/image.lock requirements/
RUN python -m venv /opt/cardroom/venv \
    && /opt/cardroom/venv/bin/pip install --require-hashes --no-deps -r requirements/pip.lock \
    && /opt/cardroom/venv/bin/pip install --require-hashes --no-deps --only-binary=:all: \
        -r requirements/image.lock
COPY pyproject.toml setup.py README.md ./
COPY simulations simulations
COPY service service
COPY workers workers
# As `make compile` does: an editable install, then the engine's hot modules compiled with
# mypyc beside their sources (newer than them, so the engine takes them).
RUN /opt/cardroom/venv/bin/pip install --no-deps --no-build-isolation -e . \
    && /opt/cardroom/venv/bin/pip check \
    && CARDROOM_COMPILE=1 /opt/cardroom/venv/bin/python setup.py --quiet build_ext --inplace --force \
    && rm -rf build
# numba's kernels for every kind of job, compiled once here into NUMBA_CACHE_DIR: a small job
# of each example (service/warm.py).  numba uses a cache only where it can write, so the pods
# copy this folder to a volume of their own at start (k8s/base: the numba-cache init
# container); a new Ray worker then loads the kernels instead of compiling them on its first
# shard of each kind (a 10,000-hand job: about 9 s cold, 2.5 s warm, measured).
COPY examples/*.toml examples/
RUN /opt/cardroom/venv/bin/python -m service.warm

FROM ${PYTHON_IMAGE}
ARG NUMBA_CPU_NAME
COPY --from=build /opt/cardroom /opt/cardroom
COPY --from=build --chown=1000:1000 /var/cache/cardroom/numba /var/cache/cardroom/numba
# Not root: uid and gid 1000, as the manifests' securityContext says.  The root filesystem
# is mounted read-only there; /tmp (Ray's sessions), /data (the job store) and the numba
# cache are volumes.
RUN groupadd --gid 1000 cardroom && useradd --uid 1000 --gid 1000 --no-create-home cardroom
ENV PATH=/opt/cardroom/venv/bin:$PATH \
    HOME=/tmp \
    PYTHONDONTWRITEBYTECODE=1 \
    RAY_USAGE_STATS_ENABLED=0 \
    NUMBA_CACHE_DIR=/var/cache/cardroom/numba \
    NUMBA_CPU_NAME=${NUMBA_CPU_NAME} \
    NUMBA_CPU_FEATURES=""
USER 1000:1000
WORKDIR /tmp
EXPOSE 50051 50052 9464
ENTRYPOINT ["cardroom"]
CMD ["serve", "--listen", "0.0.0.0:50051", "--health-listen", "0.0.0.0:50052", "--metrics-listen", "0.0.0.0:9464", "--data-dir", "/data", "--tokens", "/etc/cardroom/tokens/tokens.txt"]
