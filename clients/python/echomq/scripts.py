"""The scripts as the Java engine sends them: the expanded bodies and manifest.json of
echomq-core's protocol artifact (``echomq-core-<version>-protocol.jar``, or the build's
``echomq-core/target/protocol`` directory)."""

import hashlib
import re
import json
import os

import redis

from .errors import ProtocolError, ScriptError  # noqa: F401 (ScriptError: the first release's name)


class Scripts:
    """The scripts of one protocol directory, called by EVALSHA with EVAL on NOSCRIPT."""

    def __init__(self, directory):
        self.directory = directory
        with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as f:
            self.manifest = json.load(f)
        self.protocol = self.manifest["protocol"]
        self.format = self.manifest["format"]
        self._bodies = {}
        self._shas = {}
        for script in self.manifest["scripts"]:
            with open(os.path.join(directory, script["file"]), "rb") as f:
                body = f.read()
            sha = hashlib.sha1(body).hexdigest()
            if sha != script["sha1"]:
                raise ValueError("%s: SHA-1 %s is not the manifest's %s" % (script["file"], sha, script["sha1"]))
            self._bodies[script["name"]] = body
            self._shas[script["name"]] = sha

    def names(self):
        return sorted(self._bodies)

    def sha(self, name):
        return self._shas[name]

    def call(self, connection, name, keys, argv):
        """Run a script; an error reply raises :class:`ProtocolError` (its ``code`` the EMQ code)."""
        if name not in self._bodies:
            raise KeyError("no script %r in %s" % (name, self.directory))
        keys = [str(k) for k in keys]
        argv = [str(a) for a in argv]
        try:
            try:
                return connection.evalsha(self._shas[name], len(keys), *keys, *argv)
            except redis.exceptions.NoScriptError:
                return connection.eval(self._bodies[name], len(keys), *keys, *argv)
        except redis.exceptions.ResponseError as ex:
            if isinstance(ex, redis.exceptions.NoScriptError):
                raise
            raise ProtocolError.of(str(ex)) from ex
