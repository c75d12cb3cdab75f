import { expect } from 'vitest'
import { CheckError } from '../../src/checks/errors.js'

/** The CheckError `promise` must reject with (the test fails on anything else, or on success). */
export async function failure(promise: Promise<unknown>): Promise<CheckError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(CheckError)
  return err as CheckError
}
