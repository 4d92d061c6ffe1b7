# tilelayer container: build with the official Swift image, run on Debian slim.
#   docker build -t tilelayer . && docker run -p 8080:8080 tilelayer
# Both stages are Debian 12 (bookworm) so the runtime libraries match the build.

FROM swift:6.3-bookworm AS build
RUN apt-get update -q \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
       libpng-dev zlib1g-dev libsqlite3-dev libturbojpeg0-dev libwebp-dev libhiredis-dev libgdal-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies first so the layer is reused when only sources change.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product tilelayer \
    && install -D "$(swift build -c release --show-bin-path)/tilelayer" /out/bin/tilelayer

FROM debian:bookworm-slim
# Runtime libraries only: libpng, zlib, SQLite, libjpeg-turbo's TurboJPEG, libwebp, hiredis (the
# shared Redis tier; the Swift runtime is linked in statically), GDAL (geotiff layers), and Leaflet
# for the front page's maps (served from /usr/share/javascript/leaflet).
RUN apt-get update -q \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
       libpng16-16 zlib1g libsqlite3-0 libturbojpeg0 libwebp7 libhiredis0.14 libgdal32 ca-certificates libjs-leaflet \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin tilelayer
COPY --from=build /out/bin/tilelayer /usr/local/bin/tilelayer
WORKDIR /app
COPY --chown=root:root config ./config
COPY --chown=root:root tiles ./tiles
USER tilelayer
EXPOSE 8080
# bash's /dev/tcp keeps curl out of the image.
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -c 15 <&3 | grep -q 200"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tilelayer"]
CMD ["serve", "--config", "/app/config/tilelayer.yml"]
