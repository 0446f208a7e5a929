"""The bench's stand-in for an authorization server: one RSA key, its JWKS, one access token.

Usage: python3 oauth-token.py <dir> <issuer> <audience> <scope>
Makes a 2048-bit RSA key with openssl in <dir>, writes <dir>/jwks.json (the public key, kid
"bench"), and prints an RS256 JWT access token (RFC 9068: typ at+jwt, iss, aud, sub, scope, iat,
exp two hours ahead) signed with it. bench/run serves jwks.json over HTTP and starts svc with
`server.auth.policy.jwks_uri` pointing at it.

Only for the benchmark, which measures svc's path for a token it has already verified (cached by
its SHA-256), where who signed the token does not matter. The tests get their tokens from a real
OpenID provider (Keycloak, src/test/java/dev/svc/testing/KeycloakFixture.java).
"""
import base64
import json
import os
import subprocess
import sys
import time


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def main():
    directory, issuer, audience, scope = sys.argv[1:5]
    key = os.path.join(directory, "bench-key.pem")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                    "-out", key], check=True, capture_output=True)
    modulus = subprocess.run(["openssl", "rsa", "-in", key, "-noout", "-modulus"], check=True,
                             capture_output=True, text=True).stdout.strip().split("=", 1)[1]
    jwk = {"kty": "RSA", "kid": "bench", "use": "sig", "alg": "RS256",
           "n": b64url(bytes.fromhex(modulus)), "e": b64url((65537).to_bytes(3, "big"))}
    with open(os.path.join(directory, "jwks.json"), "w") as out:
        json.dump({"keys": [jwk]}, out)
    now = int(time.time())
    header = {"alg": "RS256", "typ": "at+jwt", "kid": "bench"}
    claims = {"iss": issuer, "aud": audience, "sub": "bench-client", "client_id": "bench-client",
              "scope": scope, "iat": now, "exp": now + 7200}
    signing_input = (b64url(json.dumps(header, separators=(",", ":")).encode()) + "."
                     + b64url(json.dumps(claims, separators=(",", ":")).encode()))
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=signing_input.encode(),
                               check=True, capture_output=True).stdout
    print(signing_input + "." + b64url(signature))


main()
