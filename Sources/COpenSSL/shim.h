// System OpenSSL 3 (libcrypto), as found by pkg-config: `libssl-dev` on Debian and Ubuntu,
// `openssl-devel` on Fedora, RHEL and Amazon Linux, Homebrew's `openssl@3` on macOS.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
// Which OpenSSL pkg-config found, checked before anything else so that a missing or old OpenSSL
// fails with the command that installs the right one.
#if defined(__has_include)
#if !__has_include(<openssl/opensslv.h>)
#error "OpenSSL 3's headers were not found. Debian/Ubuntu: sudo apt-get install libssl-dev pkg-config; Fedora/RHEL/Amazon Linux: sudo dnf install openssl-devel pkgconf-pkg-config; macOS: brew install openssl@3 pkg-config, then export PKG_CONFIG_PATH=\"$(brew --prefix openssl@3)/lib/pkgconfig\" (README: Install OpenSSL 3)"
#endif
#endif
#include <openssl/opensslv.h>
#if !defined(OPENSSL_VERSION_MAJOR) || OPENSSL_VERSION_MAJOR < 3 || defined(LIBRESSL_VERSION_NUMBER)
#error "OpenSSL 3 or later is required, and an older OpenSSL (or LibreSSL) was found. Debian/Ubuntu: sudo apt-get install libssl-dev (Debian 12, Ubuntu 22.04 or later); Fedora/RHEL/Amazon Linux: sudo dnf install openssl-devel (RHEL 9, Amazon Linux 2023 or later); macOS: brew install openssl@3, then export PKG_CONFIG_PATH=\"$(brew --prefix openssl@3)/lib/pkgconfig\" (README: Install OpenSSL 3)"
#endif
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/ocsp.h>
#include <openssl/pkcs7.h>
#endif
