#!/usr/bin/env bash
# Mints a throw-away test PKI shaped like Apple's App Store chain, for the OCSP tests, with the
# `openssl` command line only:
#
#   root (self-signed, P-256)
#   ├── intermediate    marker 1.2.840.113635.100.6.2.1, AIA OCSP → http://127.0.0.1:ROOT_PORT/   (good)
#   │   ├── ocsp-signer  delegated responder certificate: extendedKeyUsage OCSPSigning
#   │   └── leaf-NAME    marker 1.2.840.113635.100.6.11.1, P-256, AIA OCSP → http://127.0.0.1:PORT/
#   └── intermediate-revoked   the same, revoked in the root responder's index
#       └── leaf-under-revoked
#   unrelated (self-signed, not in the PKI): signs responses no verifier may accept
#
#   Scripts/make-ocsp-test-pki.sh DIR ROOT_PORT LEAF_PORT [NAME:PORT:STATUS ...]
#
# ROOT_PORT is the responder for the intermediates (signed by the root itself), LEAF_PORT the one
# for the leaves (signed by the delegated ocsp-signer). Each NAME:PORT:STATUS mints leaf-NAME whose
# AIA names http://127.0.0.1:PORT/ and lists it in the leaf responder's index as STATUS: V (good),
# R (revoked, reason keyCompromise) or - (absent: the responder answers unknown).
# Writes PEM certificates and keys (NAME.pem, NAME.key), DER certificates (NAME.der), the index
# files root-index.txt and intermediate-index.txt, and intermediate-cas.pem.
#
# OCSP_TEST_KEYS=rsa mints RSA-2048 keys everywhere instead of P-256: a PKI shaped like Apple's
# receipt chain, whose leaves sign app receipts (and whose responders sign with RSA).
set -euo pipefail
dir="$1"; root_port="$2"; leaf_port="$3"; shift 3
mkdir -p "$dir"
cd "$dir"
serial=4096

if [ "${OCSP_TEST_KEYS:-ec}" = rsa ]; then
    key() { openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1.key" 2>/dev/null; }
else
    key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }
fi

# sign NAME ISSUER EXTENSIONS SUBJECT: a certificate for NAME.key, valid from yesterday for 30 days.
sign() {
    local name="$1" issuer="$2" extensions="$3" subject="$4"
    serial=$((serial + 1))
    printf '%s\n' "$extensions" > "$name.ext"
    openssl req -new -key "$name.key" -subj "$subject" -out "$name.csr" 2>/dev/null
    openssl x509 -req -in "$name.csr" -CA "$issuer.pem" -CAkey "$issuer.key" -set_serial "$serial" \
        -days 30 -sha256 -extfile "$name.ext" -out "$name.pem" 2>/dev/null
    openssl x509 -in "$name.pem" -outform DER -out "$name.der"
}

# index-line CERT STATUS: one line of an `openssl ca` index (V valid, R revoked).
index_line() {
    local pem="$1" status="$2"
    local expiry serial_hex subject
    expiry="$(date -u -d "$(openssl x509 -in "$pem" -noout -enddate | cut -d= -f2)" +%y%m%d%H%M%SZ)"
    serial_hex="$(openssl x509 -in "$pem" -noout -serial | cut -d= -f2)"
    subject="$(openssl x509 -in "$pem" -noout -subject -nameopt compat | sed 's/^subject=//')"
    if [ "$status" = R ]; then
        printf 'R\t%s\t%s,keyCompromise\t%s\tunknown\t%s\n' "$expiry" "$(date -u -d '-1 hour' +%y%m%d%H%M%SZ)" "$serial_hex" "$subject"
    else
        printf 'V\t%s\t\t%s\tunknown\t%s\n' "$expiry" "$serial_hex" "$subject"
    fi
}

key root
openssl req -new -x509 -key root.key -subj "/CN=OCSP Test Root/O=swift-app-store-verification tests" -days 30 -sha256 \
    -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -addext "subjectKeyIdentifier=hash" -out root.pem 2>/dev/null
openssl x509 -in root.pem -outform DER -out root.der

ca_extensions="basicConstraints=critical,CA:true,pathlen:0
keyUsage=critical,keyCertSign,cRLSign
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
1.2.840.113635.100.6.2.1=ASN1:NULL
authorityInfoAccess=OCSP;URI:http://127.0.0.1:$root_port/"
key intermediate
sign intermediate root "$ca_extensions" "/CN=OCSP Test Intermediate/O=swift-app-store-verification tests"
key intermediate-revoked
sign intermediate-revoked root "$ca_extensions" "/CN=OCSP Test Revoked Intermediate/O=swift-app-store-verification tests"
{ index_line intermediate.pem V; index_line intermediate-revoked.pem R; } > root-index.txt

key ocsp-signer
sign ocsp-signer intermediate "basicConstraints=critical,CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=OCSPSigning
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid" "/CN=OCSP Test Responder/O=swift-app-store-verification tests"

key unrelated
openssl req -new -x509 -key unrelated.key -subj "/CN=Unrelated OCSP Signer" -days 30 -sha256 \
    -addext "extendedKeyUsage=OCSPSigning" -out unrelated.pem 2>/dev/null

# leaf NAME ISSUER PORT
leaf() {
    key "$1"
    sign "$1" "$2" "basicConstraints=critical,CA:false
keyUsage=critical,digitalSignature
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
1.2.840.113635.100.6.11.1=ASN1:NULL
authorityInfoAccess=OCSP;URI:http://127.0.0.1:$3/" "/CN=OCSP Test Leaf $1/O=swift-app-store-verification tests"
}

: > intermediate-index.txt
leaf leaf-under-revoked intermediate-revoked "$leaf_port"
index_line leaf-under-revoked.pem V >> intermediate-index.txt
for spec in "$@"; do
    IFS=: read -r name port status <<<"$spec"
    leaf "$name" intermediate "$port"
    if [ "$status" != - ]; then
        index_line "$name.pem" "$status" >> intermediate-index.txt
    fi
done
cat intermediate.pem intermediate-revoked.pem > intermediate-cas.pem
rm -f ./*.csr ./*.ext
