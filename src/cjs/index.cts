import requireEsm = require('./require-esm.cjs')

export = requireEsm(() => require('../index.js'))
