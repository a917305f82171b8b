// Baseline: what users build today, msw with one static handler through
// @mswjs/http-middleware's createServer. Usage: node msw-stock-server.mjs <body-file> <port>
import { readFileSync } from 'node:fs'
import { createServer } from '@mswjs/http-middleware'
import { http, HttpResponse } from 'msw'

const orders = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const app = createServer(http.get('/v1/store/orders', () => HttpResponse.json(orders)))
const server = app.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => console.log(`ready ${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
