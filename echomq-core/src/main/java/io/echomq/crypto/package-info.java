/**
 * Payload encryption: AES-256-GCM on the client, per queue, with versioned keys.
 */
@NullMarked
package io.echomq.crypto;

import org.jspecify.annotations.NullMarked;
