#!/usr/bin/env bash
# Mints a throw-away test PKI shaped like Apple's App Store chain, for the OCSP tests, with the
# `openssl` command line only:
#
#   root (self-signed, P-256)
#   ├── intermediate    marker 1.2.840.113635.100.6.2.1, AIA OCSP → http://127.0.0.1:ROOT_PORT/   (good)
#   │   ├── ocsp-signer  delegated responder certificate: extendedKeyUsage OCSPSigning
#   │   └── leaf-NAME    marker 1.2.840.113635.100.6.11.1, P-256, AIA OCSP → http://127.0.0.1:PORT/
#   ├── intermediate-revoked   the same, revoked in the root responder's index
#   │   └── leaf-under-revoked
#   └── ISSUER          (on demand) further intermediates, like `intermediate`, good
#   unrelated (self-signed, not in the PKI): signs responses no verifier may accept
#
#   Scripts/make-ocsp-test-pki.sh DIR ROOT_PORT LEAF_PORT [NAME:PORT:STATUS[:ISSUER[:SCHEME]] ...]
#
# ROOT_PORT is the responder for the intermediates (signed by the root itself), LEAF_PORT the one
# for the leaves (signed by the delegated ocsp-signer). Each NAME:PORT:STATUS mints leaf-NAME whose
# AIA names SCHEME://127.0.0.1:PORT/ (SCHEME http unless given) and lists it in the leaf
# responder's index as STATUS: V (good), R (revoked, reason keyCompromise) or - (absent: the
# responder answers unknown). ISSUER (default `intermediate`) names the CA that signs the leaf; an
# ISSUER other than `intermediate` is minted first, under the root, like `intermediate`.
# Writes PEM certificates and keys (NAME.pem, NAME.key), DER certificates (NAME.der), the index
# files root-index.txt and intermediate-index.txt, and intermediate-cas.pem (every intermediate).
#
# Every certificate is valid from one day ago for 30 days, so that tests may judge answers at a
# clock set somewhat in the past.
#
# OCSP_TEST_KEYS=rsa mints RSA-2048 keys everywhere instead of P-256: a PKI shaped like Apple's
# receipt chain, whose leaves sign app receipts (and whose responders sign with RSA).
#
# OCSP_TEST_DELEGATES=1 also mints responder certificates that must not be believed:
#   noeku-signer    issued by `intermediate` without the OCSPSigning extended key usage;
#   sibling-ca      a CA under the root beside `intermediate`, and
#   foreign-signer  issued by sibling-ca, with OCSPSigning (authorised by another CA).
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

# `openssl ca` signs (it alone can set notBefore in OpenSSL 3.0); its database is a scratch file.
start_date="$(date -u -d '-1 day' +%Y%m%d%H%M%SZ)"
end_date="$(date -u -d '+29 days' +%Y%m%d%H%M%SZ)"
mkdir -p ca-scratch
: > ca-scratch/index.txt
cat > ca-scratch/ca.cnf <<'CNF'
[ ca ]
default_ca = test_ca
[ test_ca ]
database = ca-scratch/index.txt
serial = ca-scratch/serial.txt
new_certs_dir = ca-scratch
default_md = sha256
policy = any_name
unique_subject = no
email_in_dn = no
[ any_name ]
commonName = supplied
organizationName = optional
CNF

# sign NAME ISSUER EXTENSIONS SUBJECT: a certificate for NAME.key, valid from yesterday for 30
# days, signed by ISSUER (or self-signed when ISSUER is NAME).
sign() {
    local name="$1" issuer="$2" extensions="$3" subject="$4"
    serial=$((serial + 1))
    printf '%X\n' "$serial" > ca-scratch/serial.txt
    printf '%s\n' "$extensions" > "$name.ext"
    openssl req -new -key "$name.key" -subj "$subject" -out "$name.csr" 2>/dev/null
    local signer=(-cert "$issuer.pem" -keyfile "$issuer.key")
    if [ "$issuer" = "$name" ]; then
        signer=(-selfsign -keyfile "$name.key")
    fi
    openssl ca -batch -config ca-scratch/ca.cnf -in "$name.csr" "${signer[@]}" -startdate "$start_date" \
        -enddate "$end_date" -extfile "$name.ext" -preserveDN -notext -out "$name.pem" 2>/dev/null
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
sign root root "basicConstraints=critical,CA:true
keyUsage=critical,keyCertSign,cRLSign
subjectKeyIdentifier=hash" "/CN=OCSP Test Root/O=swift-app-store-verification tests"

ca_extensions="basicConstraints=critical,CA:true,pathlen:0
keyUsage=critical,keyCertSign,cRLSign
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
1.2.840.113635.100.6.2.1=ASN1:NULL
authorityInfoAccess=OCSP;URI:http://127.0.0.1:$root_port/"
# intermediate NAME: a CA under the root, listed good in the root responder's index.
intermediate() {
    key "$1"
    sign "$1" root "$ca_extensions" "/CN=OCSP Test Intermediate $1/O=swift-app-store-verification tests"
    index_line "$1.pem" V >> root-index.txt
    cat "$1.pem" >> intermediate-cas.pem
}
: > root-index.txt
: > intermediate-cas.pem
key intermediate
sign intermediate root "$ca_extensions" "/CN=OCSP Test Intermediate/O=swift-app-store-verification tests"
key intermediate-revoked
sign intermediate-revoked root "$ca_extensions" "/CN=OCSP Test Revoked Intermediate/O=swift-app-store-verification tests"
{ index_line intermediate.pem V; index_line intermediate-revoked.pem R; } > root-index.txt
cat intermediate.pem intermediate-revoked.pem > intermediate-cas.pem

signer_extensions="basicConstraints=critical,CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=OCSPSigning
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid"
key ocsp-signer
sign ocsp-signer intermediate "$signer_extensions" "/CN=OCSP Test Responder/O=swift-app-store-verification tests"

key unrelated
sign unrelated unrelated "extendedKeyUsage=OCSPSigning" "/CN=Unrelated OCSP Signer"

if [ "${OCSP_TEST_DELEGATES:-0}" = 1 ]; then
    key noeku-signer
    sign noeku-signer intermediate "basicConstraints=critical,CA:false
keyUsage=critical,digitalSignature
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid" "/CN=OCSP Test Responder without OCSPSigning/O=swift-app-store-verification tests"
    key sibling-ca
    sign sibling-ca root "basicConstraints=critical,CA:true,pathlen:0
keyUsage=critical,keyCertSign,cRLSign
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid" "/CN=OCSP Test Sibling CA/O=swift-app-store-verification tests"
    key foreign-signer
    sign foreign-signer sibling-ca "$signer_extensions" "/CN=OCSP Test Responder of another CA/O=swift-app-store-verification tests"
fi

# leaf NAME ISSUER URL
leaf() {
    key "$1"
    sign "$1" "$2" "basicConstraints=critical,CA:false
keyUsage=critical,digitalSignature
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
1.2.840.113635.100.6.11.1=ASN1:NULL
authorityInfoAccess=OCSP;URI:$3" "/CN=OCSP Test Leaf $1/O=swift-app-store-verification tests"
}

: > intermediate-index.txt
leaf leaf-under-revoked intermediate-revoked "http://127.0.0.1:$leaf_port/"
index_line leaf-under-revoked.pem V >> intermediate-index.txt
for spec in "$@"; do
    IFS=: read -r name port status issuer scheme <<<"$spec"
    issuer="${issuer:-intermediate}"
    if [ ! -e "$issuer.pem" ]; then
        intermediate "$issuer"
    fi
    leaf "$name" "$issuer" "${scheme:-http}://127.0.0.1:$port/"
    if [ "$status" != - ]; then
        index_line "$name.pem" "$status" >> intermediate-index.txt
    fi
done
rm -rf ca-scratch ./*.csr ./*.ext
