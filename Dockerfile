# The GMO chess service, `gmo serve`, as an image. Written without a Docker engine at hand (none
# runs where this project is developed), so it has never been built here: keep it simple.
#
#   docker build -t gmo-chess .
#   docker run -p 8080:8080 gmo-chess                    # SQLite inside the container
#   docker compose up                                     # on PostgreSQL (docker-compose.yml)

# Any recent stable Rust (the workspace needs at least 1.85).
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
# Only the binary: the tests need PostgreSQL and Chromium, which an image build does not have.
# `.dockerignore` keeps target/, .git and local databases out of the build context.
RUN cargo build --release --locked -p gmo

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /var/lib/gmo gmo
COPY --from=build /src/target/release/gmo /usr/local/bin/gmo
USER gmo
WORKDIR /var/lib/gmo
# Listen on every interface inside the container; DATABASE_URL defaults to a SQLite file in the
# working directory (mount a volume on /var/lib/gmo to keep it).
ENV BIND=0.0.0.0:8080
EXPOSE 8080
# `gmo serve` stops gracefully on SIGTERM, which `docker stop` sends.
CMD ["gmo", "serve"]
