import { expect, test } from 'vitest'
import { createHostCheck, hostOf, isLoopbackHost } from './host-check.js'

test('hostOf refuses anything but a host, and normalises addresses', () => {
  expect(hostOf('LocalHost:4010')).toBe('localhost')
  expect(hostOf('[::ffff:127.0.0.1]:80')).toBe('[::ffff:7f00:1]')
  expect(hostOf('0x7f.1')).toBe('127.0.0.1')
  for (const bad of ['x/v1/store/orders/2?', 'a?b', 'a#b', 'user@evil.example', 'a b', '', 'x'.repeat(300)])
    expect(hostOf(bad), bad).toBeNull()
})

test('loopback names and addresses, and nothing else', () => {
  for (const host of ['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '[::ffff:7f00:1]'])
    expect(isLoopbackHost(host), host).toBe(true)
  for (const host of ['evil.example', 'localhost.evil.example', '128.0.0.1', '[::2]', '[::ffff:a00:1]', '0.0.0.0'])
    expect(isLoopbackHost(host), host).toBe(false)
})

test('a rebinding name is refused with 403 forbidden_host naming the flag; loopback passes', () => {
  const check = createHostCheck()
  expect(check('127.0.0.1:4010')).toBeNull()
  expect(check('localhost')).toBeNull()
  expect(check('[::ffff:127.0.0.1]:4010')).toBeNull()
  const refused = check('evil.example:4010')
  expect(refused?.status).toBe(403)
  expect(refused?.code).toBe('forbidden_host')
  expect(refused?.message).toContain('--allowed-hosts evil.example')
})

test('a missing or malformed Host is a 400', () => {
  const check = createHostCheck()
  expect(check(undefined)?.status).toBe(400)
  expect(check('x/v1/store/orders/2?')?.status).toBe(400)
})

test('allowed hosts add names, a leading dot adds a domain, own addresses pass, and "all" turns the check off', () => {
  const check = createHostCheck({ allowedHosts: ['qa.example.test', '.corp.test'], ownAddresses: ['192.168.1.5'] })
  expect(check('qa.example.test')).toBeNull()
  expect(check('a.corp.test:8080')).toBeNull()
  expect(check('corp.test')).toBeNull()
  expect(check('192.168.1.5:4010')).toBeNull()
  expect(check('other.example.test')?.status).toBe(403)
  expect(createHostCheck({ allowedHosts: 'all' })('anything.example')).toBeNull()
})
