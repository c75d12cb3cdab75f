/**
 * What Node's certificate object does not say about a leaf: its signature algorithm and whether it
 * demands a stapled OCSP response (RFC 7633). Read from the DER with @peculiar/asn1-x509, a
 * maintained X.509 schema that parses RSA, ECDSA and EdDSA certificates alike (node-forge cannot read
 * a non-RSA key, and Node 20's X509Certificate has no signature algorithm).
 */
import { AsnConvert } from '@peculiar/asn1-schema'
import { Certificate } from '@peculiar/asn1-x509'
import * as asn1js from 'asn1js'

export interface LeafFacts {
  signatureAlgorithm: string | null
  signatureHash: string | null
  mustStaple: boolean
}

/** id-pe-tlsfeature (RFC 7633 §6). */
const TLS_FEATURE_OID = '1.3.6.1.5.5.7.1.24'
/** TLS extension number of status_request (RFC 6066 §8): the feature must-staple asks for. */
const STATUS_REQUEST = 5

/** Signature algorithm OIDs (RFC 3279, 4055, 5758, 8410) → name and hash. */
const SIGNATURE_ALGORITHMS: Record<string, [name: string, hash: string | null]> = {
  '1.2.840.113549.1.1.2': ['md2WithRSAEncryption', 'MD2'],
  '1.2.840.113549.1.1.4': ['md5WithRSAEncryption', 'MD5'],
  '1.2.840.113549.1.1.5': ['sha1WithRSAEncryption', 'SHA-1'],
  '1.2.840.113549.1.1.10': ['RSASSA-PSS', null],
  '1.2.840.113549.1.1.11': ['sha256WithRSAEncryption', 'SHA-256'],
  '1.2.840.113549.1.1.12': ['sha384WithRSAEncryption', 'SHA-384'],
  '1.2.840.113549.1.1.13': ['sha512WithRSAEncryption', 'SHA-512'],
  '1.2.840.113549.1.1.14': ['sha224WithRSAEncryption', 'SHA-224'],
  '1.2.840.10040.4.3': ['dsa-with-sha1', 'SHA-1'],
  '2.16.840.1.101.3.4.3.2': ['dsa-with-sha256', 'SHA-256'],
  '1.2.840.10045.4.1': ['ecdsa-with-SHA1', 'SHA-1'],
  '1.2.840.10045.4.3.1': ['ecdsa-with-SHA224', 'SHA-224'],
  '1.2.840.10045.4.3.2': ['ecdsa-with-SHA256', 'SHA-256'],
  '1.2.840.10045.4.3.3': ['ecdsa-with-SHA384', 'SHA-384'],
  '1.2.840.10045.4.3.4': ['ecdsa-with-SHA512', 'SHA-512'],
  '1.3.101.112': ['Ed25519', null],
  '1.3.101.113': ['Ed448', null],
}

/** Facts of a DER certificate; nulls (never a throw) for what cannot be read. */
export function readLeafFacts(der: Uint8Array | undefined): LeafFacts {
  const none: LeafFacts = { signatureAlgorithm: null, signatureHash: null, mustStaple: false }
  if (!der || der.length === 0) return none
  let cert: Certificate
  try {
    cert = AsnConvert.parse(der, Certificate)
  } catch {
    return none
  }
  const oid = cert.signatureAlgorithm.algorithm
  const known = SIGNATURE_ALGORITHMS[oid]
  const feature = cert.tbsCertificate.extensions?.find((e) => e.extnID === TLS_FEATURE_OID)
  return {
    signatureAlgorithm: known?.[0] ?? oid,
    signatureHash: known?.[1] ?? null,
    mustStaple: feature ? tlsFeatures(feature.extnValue.buffer).includes(STATUS_REQUEST) : false,
  }
}

/** TLSFeature ::= SEQUENCE OF INTEGER (RFC 7633 §6). */
function tlsFeatures(value: ArrayBuffer): number[] {
  const parsed = asn1js.fromBER(value)
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return []
  return parsed.result.valueBlock.value
    .filter((item): item is asn1js.Integer => item instanceof asn1js.Integer)
    .map((item) => item.valueBlock.valueDec)
}
