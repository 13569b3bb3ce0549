// What the browser player takes from the audited noble libraries: bundled by build.sh into
// ../player/noble.js as the global NavakankariNoble, a classic script that works on a plain
// http page (no crypto.subtle, no module loader).
export { sha256 } from "@noble/hashes/sha2.js";
export { hmac } from "@noble/hashes/hmac.js";
export { hkdf } from "@noble/hashes/hkdf.js";
export { scrypt, scryptAsync } from "@noble/hashes/scrypt.js";
export { argon2id, argon2idAsync } from "@noble/hashes/argon2.js";
export { chacha20poly1305, xchacha20poly1305 } from "@noble/ciphers/chacha.js";
