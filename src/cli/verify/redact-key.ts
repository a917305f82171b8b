/** Keys shorter than this are not redacted: they cannot be told from other text (a key "1" is in every status). */
const MIN_REDACTED_LENGTH = 8

/**
 * Every trace of the key (as sent, or percent-encoded in an echoed URL)
 * replaced: a last guard over what is printed, besides the service's bodies,
 * which are redacted as they arrive.
 */
export function redactor(key: string): (text: string) => string {
  if (key.length < MIN_REDACTED_LENGTH) return (text) => text
  const forms = [...new Set([key, encodeURIComponent(key)])]
  return (text) => forms.reduce((redacted, form) => redacted.split(form).join('[key]'), text)
}
