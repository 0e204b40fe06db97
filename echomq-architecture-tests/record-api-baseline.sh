#!/usr/bin/env bash
# Record the public API of the modules that have one as the baseline japicmp checks against
# (docs/compatibility.md): each module's jar without its internal packages and resources.
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=(echomq-core echomq-spring-boot-autoconfigure echomq-test-queues)
mvn -B -q -DskipTests -Djapicmp.skip=true package -pl "$(IFS=,; echo "${MODULES[*]}")" -am
for module in "${MODULES[@]}"; do
  work=$(mktemp -d)
  (cd "$work" && jar xf "$OLDPWD/$module/target/$module-"*.jar)
  find "$work" -type d -name internal -prune -exec rm -rf {} +
  find "$work" -type f ! -name '*.class' -delete
  mkdir -p "$module/api"
  rm -f "$module/api/baseline.jar"
  jar cf "$module/api/baseline.jar" -C "$work" .
  rm -rf "$work"
  echo "$module/api/baseline.jar: $(unzip -l "$module/api/baseline.jar" | tail -n 1 | awk '{print $2}') files"
done
