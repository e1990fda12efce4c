# Build: docker build -t damka .
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY crates crates
COPY migrations migrations
RUN cargo build --release --locked --bin damka --bin draughts

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /srv/damka damka
WORKDIR /srv/damka
COPY --from=build /src/target/release/damka /src/target/release/draughts /usr/local/bin/
COPY static static
RUN mkdir data && chown damka data
USER damka
ENV DAMKA_BIND=0.0.0.0:8080 DAMKA_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
CMD ["damka"]
