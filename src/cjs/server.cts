import requireEsm = require('./require-esm.cjs')

export = requireEsm(() => require('../server.js'), 'petstore-orders-simulator/server')
