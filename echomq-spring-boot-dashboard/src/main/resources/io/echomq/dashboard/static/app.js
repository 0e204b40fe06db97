/*
 * EchoMQ dashboard: draws every page from the JSON API and polls it. No dependencies;
 * data only ever reaches the page through textContent and attributes, never as HTML.
 */
(function () {
	'use strict';

	function meta(name) {
		var element = document.querySelector('meta[name="echomq-' + name + '"]');
		return element ? element.getAttribute('content') : '';
	}

	var config = {
		kind: meta('kind'),
		base: meta('base'),
		node: meta('node'),
		refresh: Math.max(100, parseInt(meta('refresh'), 10) || 5000),
		canWrite: meta('can-write') === 'true',
		showValues: meta('show-values') === 'true',
		csrfHeader: meta('csrf-header'),
		csrfToken: meta('csrf-token'),
		appCsrfHeader: meta('app-csrf-header'),
		appCsrfToken: meta('app-csrf-token')
	};

	var STATE_LABELS = { pending: 'Pending', active: 'Active', schedule: 'Scheduled', dead: 'Dead', quarantine: 'Quarantine', completed: 'Completed', waiting: 'Waiting',
		failed: 'Failed', removed: 'Removed', gone: 'Gone' };
	// every badge reads as a label: first letter capital, as STATE_LABELS
	function label(word) {
		var value = String(word);
		return value.charAt(0).toUpperCase() + value.substring(1);
	}

	var AT_LABELS = { pending: '', active: 'Lease expires', schedule: 'Runs at', dead: 'Died', quarantine: 'Quarantined', completed: 'Completed', waiting: 'Waiting since' };
	var DELETABLE = { pending: true, schedule: true, dead: true, completed: true };
	var CANCELLABLE = { pending: true, schedule: true, dead: true, active: true };

	// the actions on one job in a state: [id suffix, label, path, class, confirmation]
	function jobActions(queue, state, id) {
		var path = '/queues/' + q(queue) + '/jobs/' + id;
		var actions = [];
		if (state === 'dead') {
			actions.push(['replay', 'Replay', path + '/replay', 'replay primary', null]);
		}
		if (state === 'schedule') {
			actions.push(['run', 'Run now', path + '/run', 'run primary', null]);
		}
		if (CANCELLABLE[state]) {
			actions.push(['cancel', 'Cancel', path + '/cancel', 'cancel danger', function () {
				return cancelConfirmation(queue, state, id);
			}]);
		}
		if (DELETABLE[state]) {
			actions.push(['delete', 'Delete', path + '/delete', 'delete danger',
				'Delete ' + (STATE_LABELS[state] || state).toLowerCase() + ' job ' + id + '? This cannot be undone.']);
		}
		return actions;
	}

	// what cancel does to the job, and to its flow parent when its row names one (docs/flows.md,
	// "Cancelling and replaying"): a dead child was counted when it died, a batch is no flow parent
	function cancelConfirmation(queue, state, id) {
		var question = state === 'active'
			? 'Cancel running job ' + id + '? Its handler is stopped at the next lease renewal and its outcome discarded.'
			: 'Cancel ' + (STATE_LABELS[state] || state).toLowerCase() + ' job ' + id + '? It is removed with its row.';
		if (state === 'dead') {
			return Promise.resolve(question);
		}
		return get('/queues/' + q(queue) + '/jobs/' + encodeURIComponent(id)).then(function (job) {
			var parentQueue = job.fields.flow_parent_queue;
			var parentId = job.fields.flow_parent_id;
			if (!parentId) {
				return question;
			}
			return get('/queues/' + q(parentQueue) + '/batches/' + encodeURIComponent(parentId)).then(function () {
				return question;
			}, function () {
				return question + ' ' + parentConsequence(parentQueue + '/' + parentId, job.fields.flow_policy);
			});
		}, function () {
			return question;
		});
	}

	function parentConsequence(parent, policy) {
		if (policy === 'ignore') {
			return 'Its flow parent ' + parent + ' records it as failed and still runs (IGNORE).';
		}
		if (policy === 'remove') {
			return 'Its flow parent ' + parent + ' records it as removed and still runs (REMOVE).';
		}
		return 'Its flow parent ' + parent + ' will be dead-lettered (FAIL_PARENT): it never runs unless this job is replayed.';
	}

	function actionButtons(queue, state, id, withIds) {
		var actions = jobActions(queue, state, id);
		if (!config.canWrite || !actions.length) {
			return null;
		}
		return el('div', { class: 'actions' }, actions.map(function (action) {
			var attributes = { class: action[3], text: action[1], onclick: function () {
				act(action[2], action[4]);
			} };
			if (withIds) {
				attributes.id = action[0];
			}
			return el('button', attributes);
		}));
	}
	var MINUTE = 60000;
	var WINDOW = 60;

	// ---------- DOM helpers ----------

	function el(tag, attributes) {
		var element = document.createElement(tag);
		if (attributes) {
			Object.keys(attributes).forEach(function (name) {
				var value = attributes[name];
				if (value === null || value === undefined || value === false) {
					return;
				}
				if (name === 'text') {
					element.textContent = String(value);
				}
				else if (name.indexOf('on') === 0) {
					element.addEventListener(name.substring(2), value);
				}
				else {
					element.setAttribute(name, value === true ? '' : String(value));
				}
			});
		}
		for (var i = 2; i < arguments.length; i++) {
			append(element, arguments[i]);
		}
		return element;
	}

	function append(parent, child) {
		if (child === null || child === undefined || child === false) {
			return;
		}
		if (Array.isArray(child)) {
			child.forEach(function (each) {
				append(parent, each);
			});
			return;
		}
		parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
	}

	function svg(tag, attributes) {
		var element = document.createElementNS('http://www.w3.org/2000/svg', tag);
		Object.keys(attributes || {}).forEach(function (name) {
			if (name === 'text') {
				element.textContent = String(attributes[name]);
			}
			else {
				element.setAttribute(name, String(attributes[name]));
			}
		});
		return element;
	}

	function replace(id, element) {
		var current = document.getElementById(id);
		if (current) {
			current.replaceWith(element);
		}
		return element;
	}

	var rendered = {};

	/** Redraw a section only when what it shows changed, so polling keeps selections and hovers. */
	function render(id, data, build) {
		var key = JSON.stringify(data);
		if (rendered[id] === key && document.getElementById(id)) {
			return;
		}
		rendered[id] = key;
		replace(id, build());
	}

	function pad(number) {
		return (number < 10 ? '0' : '') + number;
	}

	function time(ms) {
		if (ms === null || ms === undefined) {
			return '—';
		}
		var date = new Date(ms);
		return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate()) + ' '
			+ pad(date.getHours()) + ':' + pad(date.getMinutes()) + ':' + pad(date.getSeconds());
	}

	function relative(ms) {
		if (ms === null || ms === undefined) {
			return '';
		}
		var difference = ms - Date.now();
		// within a second either way (the browser's clock and the server's differ a little): now
		if (Math.abs(difference) < 1000) {
			return 'now';
		}
		var magnitude = Math.floor(Math.abs(difference) / 1000);
		var text = magnitude < 60 ? magnitude + ' s' : magnitude < 3600 ? Math.round(magnitude / 60) + ' min'
			: magnitude < 172800 ? Math.round(magnitude / 3600) + ' h' : Math.round(magnitude / 86400) + ' d';
		return difference > 0 ? 'in ' + text : text + ' ago';
	}

	function when(ms) {
		return el('span', { title: relative(ms), text: time(ms) });
	}

	// a cron fires on the wall clock of its zone: its times are shown there, zone named
	function zoned(ms, zone) {
		if (!zone) {
			return when(ms);
		}
		var parts = {};
		try {
			new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit',
				day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms))
				.forEach(function (part) {
					parts[part.type] = part.value;
				});
		}
		catch (e) {
			return el('span', { title: relative(ms), text: time(ms) + ' (your time; schedule zone ' + zone + ')' });
		}
		return el('span', { title: relative(ms) + ' (' + time(ms) + ' here)', text: parts.year + '-' + parts.month + '-'
			+ parts.day + ' ' + parts.hour + ':' + parts.minute + ':' + parts.second + ' ' + zone });
	}

	function text(value) {
		if (value === null || value === undefined) {
			return '—';
		}
		return typeof value === 'string' ? value : JSON.stringify(value);
	}

	function seconds(ms) {
		return (ms < 10000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000)) + ' s';
	}

	function plural(count, word) {
		return count + ' ' + word + (count === 1 ? '' : 's');
	}

	// ---------- API ----------

	function ApiError(status, message) {
		this.status = status;
		this.message = message;
	}

	function request(method, path) {
		var headers = { 'Accept': 'application/json' };
		if (method !== 'GET') {
			headers[config.csrfHeader] = config.csrfToken;
			if (config.appCsrfHeader) {
				headers[config.appCsrfHeader] = config.appCsrfToken;
			}
		}
		return fetch(config.base + '/api' + path, { method: method, headers: headers, credentials: 'same-origin' })
			.then(function (response) {
				return response.text().then(function (body) {
					var json = null;
					try {
						json = body ? JSON.parse(body) : null;
					}
					catch (ex) {
						json = null;
					}
					if (!response.ok) {
						throw new ApiError(response.status, (json && json.message) || (response.status + ' ' + response.statusText));
					}
					return json;
				});
			});
	}

	function get(path) {
		return request('GET', path);
	}

	var toastTimer = null;

	function toast(message, isError) {
		var element = document.getElementById('toast');
		element.textContent = message;
		element.className = 'toast shown' + (isError ? ' error' : '');
		clearTimeout(toastTimer);
		toastTimer = setTimeout(function () {
			element.className = 'toast';
		}, isError ? 8000 : 4000);
	}

	function act(path, confirmation) {
		if (typeof confirmation === 'function') {
			confirmation().then(function (question) {
				act(path, question);
			});
			return;
		}
		if (confirmation && !window.confirm(confirmation)) {
			return;
		}
		request('POST', path).then(function (outcome) {
			toast(outcome.message, false);
			refresh();
		}, function (error) {
			toast(error.message || String(error), true);
			refresh();
		});
	}

	function q(queue) {
		return encodeURIComponent(queue);
	}

	// ---------- polling ----------

	var poll = null;

	function live(ok) {
		var element = document.getElementById('live');
		element.className = ok ? 'live' : 'live stale';
		element.textContent = ok ? 'live' : 'offline';
	}

	function refresh() {
		if (!poll || document.hidden) {
			return;
		}
		poll().then(function () {
			live(true);
		}, function (error) {
			live(!(error instanceof TypeError));
			if (!(error instanceof ApiError)) {
				console.error(error);
			}
		});
	}

	function start(loader) {
		poll = loader;
		refresh();
		setInterval(refresh, config.refresh);
		document.addEventListener('visibilitychange', refresh);
	}

	// ---------- chart ----------

	/** Per-minute buckets sampled from cumulative counters while the page is open. */
	function Sampler() {
		this.last = {};
		this.buckets = {};
	}

	Sampler.prototype.sample = function (key, counters, now) {
		var completed = counters.completed || 0;
		var failed = (counters.retried || 0) + (counters.dead || 0);
		var previous = this.last[key];
		this.last[key] = { completed: completed, failed: failed };
		if (!previous) {
			return;
		}
		var minute = Math.floor(now / MINUTE) * MINUTE;
		var bucket = this.buckets[minute] || (this.buckets[minute] = { completed: 0, failed: 0 });
		bucket.completed += Math.max(0, completed - previous.completed);
		bucket.failed += Math.max(0, failed - previous.failed);
		var oldest = minute - WINDOW * MINUTE;
		Object.keys(this.buckets).forEach(function (start) {
			if (Number(start) <= oldest) {
				delete this.buckets[start];
			}
		}, this);
	};

	Sampler.prototype.minutes = function () {
		var buckets = this.buckets;
		return Object.keys(buckets).map(function (start) {
			return { start: Number(start), completed: buckets[start].completed, failed: buckets[start].failed };
		});
	};

	function engineMinutes(history, queue) {
		var merged = {};
		Object.keys(history.queues).forEach(function (name) {
			if (queue && name !== queue) {
				return;
			}
			history.queues[name].forEach(function (minute) {
				var bucket = merged[minute.start] || (merged[minute.start] = { start: minute.start, completed: 0, failed: 0 });
				bucket.completed += minute.completed;
				bucket.failed += minute.failed;
			});
		});
		return Object.keys(merged).map(function (start) {
			return merged[start];
		});
	}

	function chart(minutes, source) {
		var width = 720;
		var height = 150;
		var left = 34;
		var bottom = 18;
		var now = Math.floor(Date.now() / MINUTE) * MINUTE;
		var byStart = {};
		var completed = 0;
		var failed = 0;
		var max = 1;
		minutes.forEach(function (minute) {
			byStart[minute.start] = minute;
			completed += minute.completed;
			failed += minute.failed;
			max = Math.max(max, minute.completed, minute.failed);
		});
		var root = svg('svg', {
			id: 'chart',
			viewBox: '0 0 ' + width + ' ' + height,
			role: 'img',
			'aria-label': 'Completed and failed jobs per minute, last hour',
			'data-source': source,
			'data-completed': completed,
			'data-failed': failed
		});
		var plot = height - bottom;
		var slot = (width - left) / WINDOW;
		root.appendChild(svg('line', { class: 'axis', x1: left, y1: plot, x2: width, y2: plot }));
		root.appendChild(svg('text', { x: 0, y: 10, text: max }));
		root.appendChild(svg('text', { x: 0, y: plot, text: '0' }));
		for (var i = 0; i < WINDOW; i++) {
			var start = now - (WINDOW - 1 - i) * MINUTE;
			var minute = byStart[start];
			var x = left + i * slot;
			if (minute) {
				var completedHeight = (minute.completed / max) * (plot - 4);
				var failedHeight = (minute.failed / max) * (plot - 4);
				var title = time(start).substring(11, 16) + ': ' + minute.completed + ' completed, ' + minute.failed + ' failed';
				var bar = svg('rect', { class: 'bar-completed', x: x + 1, y: plot - completedHeight, width: slot / 2 - 1, height: completedHeight });
				bar.appendChild(svg('title', { text: title }));
				root.appendChild(bar);
				var failedBar = svg('rect', { class: 'bar-failed', x: x + slot / 2, y: plot - failedHeight, width: slot / 2 - 1, height: failedHeight });
				failedBar.appendChild(svg('title', { text: title }));
				root.appendChild(failedBar);
			}
			if (i % 15 === 0) {
				root.appendChild(svg('text', { x: x, y: height - 4, text: '-' + (WINDOW - i) + ' min' }));
			}
		}
		root.appendChild(svg('text', { x: width - 24, y: height - 4, text: 'now' }));
		return root;
	}

	function chartPanel(id, minutes, kept) {
		var caption = kept ? 'Per minute, over the last hour, from the engine (every node\'s work).'
			: 'Per minute, sampled from the queue counters every ' + seconds(config.refresh)
				+ ' while this page is open: the engine keeps no history yet.';
		return el('section', { id: id, class: 'panel chart' },
			el('div', { class: 'row' },
				el('h2', { text: 'Throughput' }),
				el('span', { class: 'spacer' }),
				el('span', { class: 'legend' },
					el('span', null, el('span', { class: 'swatch completed' }), 'completed'),
					el('span', null, el('span', { class: 'swatch failed' }), 'failed attempts'))),
			chart(minutes, kept ? 'engine' : 'page'),
			el('p', { class: 'muted', text: caption }));
	}

	// ---------- nodes ----------

	// the listeners of the other live nodes, from the queue's node registry
	function otherNodes(queue) {
		return (queue.nodes || []).filter(function (node) {
			return !node.self;
		});
	}

	// a node's last report, on server time: never shown as in the future when the browser's clock lags
	function seen(node) {
		return Date.now() - node.seen < 1000 ? 'just now' : relative(node.seen);
	}

	function nodeBadge(node) {
		var state = node.paused ? 'paused' : 'running';
		return el('span', { class: 'node-listener', 'data-node': node.node, 'data-state': state, 'data-concurrency': node.concurrency,
			title: 'Listener ' + node.id + ' on ' + node.node + ', last seen ' + seen(node) },
			el('span', { class: 'node-name', text: node.node }), ' ',
			el('span', { class: 'badge listener-state ' + state, text: label(state) }), ' ',
			el('span', { class: 'muted', text: node.inFlight + '/' + node.concurrency + ' busy' }));
	}

	function otherNodesCell(queue) {
		var others = otherNodes(queue);
		return others.length ? el('div', { class: 'node-list' }, others.map(nodeBadge))
			: el('span', { class: 'muted node-list', 'data-nodes': 0, text: 'none' });
	}

	function nodesTable(queue) {
		var others = otherNodes(queue);
		if (!others.length) {
			return el('p', { id: 'other-nodes', class: 'muted', text: 'No other node listens to this queue.' });
		}
		var head = el('tr', null, el('th', { text: 'Node' }), el('th', { text: 'Listener' }), el('th', { text: 'State' }),
			el('th', { class: 'num', text: 'Busy' }), el('th', { class: 'num', text: 'Completed' }),
			el('th', { class: 'num', text: 'Retried' }), el('th', { class: 'num', text: 'Dead' }),
			el('th', { class: 'num', text: 'Lost leases' }), el('th', { text: 'Last seen' }));
		var rows = others.map(function (node) {
			var state = node.paused ? 'paused' : 'running';
			return el('tr', { class: 'node-row', 'data-node': node.node, 'data-concurrency': node.concurrency },
				el('td', { class: 'node-name mono', text: node.node }),
				el('td', { text: node.id }),
				el('td', null, el('span', { class: 'badge listener-state ' + state, 'data-state': state, text: label(state) })),
				el('td', { class: 'num', text: node.inFlight + ' / ' + node.concurrency }),
				el('td', { class: 'num', text: node.completed }),
				el('td', { class: 'num', text: node.retried }),
				el('td', { class: 'num', text: node.dead }),
				el('td', { class: 'num', text: node.stale }),
				el('td', { class: 'muted', text: seen(node) }));
		});
		return el('table', { id: 'other-nodes' }, el('thead', null, head), el('tbody', null, rows));
	}

	function ownerCell(job) {
		if (!job.claimedBy) {
			return el('td', { class: 'muted owner', title: 'The claim named no node', text: 'unknown' });
		}
		var self = job.claimedBy === config.node;
		return el('td', { class: 'owner mono', 'data-owner': job.claimedBy, title: self ? 'This node' : 'Another node',
			text: job.claimedBy + (self ? ' (this node)' : '') });
	}

	function ownerLine(job) {
		if (!job.claimedBy) {
			return null;
		}
		var active = job.state === 'active';
		return el('p', { id: 'job-owner', 'data-owner': job.claimedBy },
			el('span', { class: 'muted', text: active ? 'Lease held by ' : 'Last claimed by ' }),
			el('strong', { class: 'mono', text: job.claimedBy }),
			job.claimedBy === config.node ? el('span', { class: 'muted', text: ' (this node)' }) : null);
	}

	// ---------- overview ----------

	function listenerBadge(listener) {
		if (!listener) {
			return el('span', { class: 'muted listener-state', 'data-state': 'none', text: 'no listener here' });
		}
		var state = !listener.running ? 'stopped' : listener.paused ? 'paused' : 'running';
		return el('span', null,
			el('span', { class: 'badge listener-state ' + state, 'data-state': state, text: label(state) }), ' ',
			el('span', { class: 'muted', text: listener.inFlight + '/' + listener.concurrency + ' busy' }));
	}

	function pauseButton(queue, listener) {
		if (!config.canWrite || !listener) {
			return null;
		}
		return listener.paused
			? el('button', { class: 'resume', 'data-queue': queue, text: 'Resume', onclick: function () {
				act('/queues/' + q(queue) + '/resume');
			} })
			: el('button', { class: 'pause', 'data-queue': queue, text: 'Pause', onclick: function () {
				act('/queues/' + q(queue) + '/pause');
			} });
	}

	function clusterBadge(queue) {
		var left = queue.flow && queue.flow.pauseLeftMillis;
		return queue.pausedCluster
			? el('span', null,
				el('span', { class: 'badge cluster-state paused', 'data-state': 'paused', title: 'No node claims from this queue until it is resumed', text: 'Paused (cluster)' }), ' ',
				el('span', { class: 'muted pause-left', 'data-left': left || '', text: left ? duration(left) + ' left' : 'until resumed' }))
			: el('span', { class: 'muted cluster-state', 'data-state': 'claiming', text: 'claiming' });
	}

	function duration(ms) {
		var total = Math.ceil(ms / 1000);
		if (total < 60) {
			return total + ' s';
		}
		if (total < 3600) {
			return Math.floor(total / 60) + ' min ' + pad(total % 60) + ' s';
		}
		return Math.floor(total / 3600) + ' h ' + pad(Math.floor(total % 3600 / 60)) + ' min';
	}

	function period(ms) {
		return ms % 3600000 === 0 ? (ms / 3600000) + ' h' : ms % 60000 === 0 ? (ms / 60000) + ' min'
			: ms % 1000 === 0 ? (ms / 1000) + ' s' : ms + ' ms';
	}

	function partitionBadge(flow) {
		return flow && flow.partitionCount > 1
			? el('span', { class: 'badge partitions', title: 'echomq.queues.<name>.partitions: one queue spread over ' + flow.partitionCount + ' hash tags', text: flow.partitionCount + ' partitions' })
			: null;
	}

	function clusterButton(queue) {
		if (!config.canWrite) {
			return null;
		}
		return queue.pausedCluster
			? el('button', { class: 'cluster-resume', 'data-queue': queue.name, text: 'Resume everywhere', onclick: function () {
				act('/queues/' + q(queue.name) + '/cluster/resume');
			} })
			: el('button', { class: 'cluster-pause', 'data-queue': queue.name, text: 'Pause everywhere', onclick: function () {
				act('/queues/' + q(queue.name) + '/cluster/pause', 'Pause ' + queue.name + ' on every node? No node claims from it until it is resumed; running jobs finish.');
			} });
	}

	function overview() {
		var sampler = new Sampler();
		document.title = 'EchoMQ';
		var main = document.getElementById('main');
		main.textContent = '';
		append(main, [
			el('h1', { text: 'Queues' }),
			el('section', { id: 'queues', class: 'panel' }, el('p', { class: 'muted', text: 'Loading…' })),
			chartPanel('throughput', [], false)
		]);
		start(function () {
			return Promise.all([get('/overview'), get('/history')]).then(function (results) {
				var data = results[0];
				var history = results[1];
				var now = Date.now();
				data.queues.forEach(function (queue) {
					sampler.sample(queue.name, queue.counters, now);
				});
				var minutes = history.kept ? engineMinutes(history) : sampler.minutes();
				render('queues', data, function () {
					return queuesPanel(data);
				});
				render('throughput', [minutes, Math.floor(now / MINUTE)], function () {
					return chartPanel('throughput', minutes, history.kept);
				});
			});
		});
	}

	function queuesPanel(data) {
		if (!data.queues.length) {
			return el('section', { id: 'queues', class: 'panel' },
				el('p', { class: 'muted', text: 'No queues yet: a queue shows once it has a listener here, is named under echomq.queues, or this application enqueued to it.' }));
		}
		var states = Object.keys(data.queues[0].counts);
		var head = el('tr', null, el('th', { text: 'Queue' }),
			states.map(function (state) {
				return el('th', { class: 'num', text: state === 'completed' ? 'Kept done' : (STATE_LABELS[state] || state),
					title: state === 'completed' ? 'Completed jobs kept within the queue\'s retention' : null });
			}),
			el('th', { class: 'num', text: 'Completed', title: 'Completed by every node, all time' }),
			el('th', { text: 'Listener on this node' }),
			el('th', { text: 'Other nodes', title: 'The listeners of the other live nodes' }),
			el('th', { text: 'Cluster', title: 'The queue\'s pause flag, which every node obeys' }),
			el('th', { text: '' }));
		var rows = data.queues.map(function (queue) {
			return [el('tr', { id: 'queue-' + queue.name, 'data-queue': queue.name },
				el('td', null, el('a', { class: 'queue-link', href: config.base + '/queues/' + q(queue.name), text: queue.name }), ' ', partitionBadge(queue.flow)),
				states.map(function (state) {
					return el('td', { class: 'num count-' + state, 'data-count': queue.counts[state], text: queue.counts[state] });
				}),
				el('td', { class: 'num total-completed', text: queue.counters.completed || 0 }),
				el('td', null, listenerBadge(queue.listener)),
				el('td', { class: 'other-nodes' }, otherNodesCell(queue)),
				el('td', null, clusterBadge(queue)),
				el('td', null, el('div', { class: 'actions' }, pauseButton(queue.name, queue.listener), clusterButton(queue)))),
			queue.flow.partitions.map(function (partition) {
				return el('tr', { id: 'partition-' + queue.name + '-' + partition.index, class: 'partition-row', 'data-partition': partition.name },
					el('td', { class: 'partition-name' }, el('span', { class: 'mono', text: '#' + partition.index + ' ' + partition.name }),
						partition.node ? el('span', { class: 'muted partition-node', text: ' on ' + partition.node }) : null),
					states.map(function (state) {
						return el('td', { class: 'num count-' + state, 'data-count': partition.counts[state], text: partition.counts[state] });
					}),
					el('td', { class: 'num total-completed', text: partition.counters.completed || 0 }),
					el('td', { colspan: 4 }));
			})];
		});
		return el('section', { id: 'queues', class: 'panel' },
			el('table', { id: 'queue-table' }, el('thead', null, head), el('tbody', null, rows)));
	}

	// ---------- queue page ----------

	function pathPart(index) {
		var parts = window.location.pathname.substring(config.base.length).split('/');
		return decodeURIComponent(parts[index] || '');
	}

	function queuePage() {
		var queue = pathPart(2);
		var params = new URLSearchParams(window.location.search);
		var view = { state: params.get('state') || 'pending', offset: Math.max(0, parseInt(params.get('offset'), 10) || 0), limit: 20,
			partition: params.get('partition') || '' };
		var sampler = new Sampler();
		document.title = queue + ' · EchoMQ';
		var main = document.getElementById('main');
		main.textContent = '';
		append(main, [
			el('div', { class: 'crumbs' }, el('a', { href: config.base + '/', text: 'Queues' }), ' / '),
			el('h1', { id: 'queue-name', text: queue }),
			el('div', { id: 'tabs', class: 'tabs' }),
			el('section', { id: 'listener', class: 'panel' }),
			el('section', { id: 'flow', class: 'panel' }),
			config.canWrite ? limitsForm(queue) : null,
			el('section', { id: 'jobs', class: 'panel' }, el('p', { class: 'muted', text: 'Loading…' })),
			el('section', { id: 'batches' }),
			chartPanel('throughput', [], false)
		]);

		function select(state, offset, partition) {
			view.state = state;
			view.offset = offset;
			if (partition !== undefined) {
				view.partition = partition;
			}
			window.history.replaceState(null, '', config.base + '/queues/' + q(queue) + '?state=' + state + (offset ? '&offset=' + offset : '')
				+ (view.partition !== '' ? '&partition=' + view.partition : ''));
			refresh();
		}

		start(function () {
			var path = '/queues/' + q(queue) + '/jobs?state=' + view.state + '&offset=' + view.offset + '&limit=' + view.limit
				+ (view.partition !== '' ? '&partition=' + encodeURIComponent(view.partition) : '');
			return Promise.all([get(path), get('/history'), get('/queues/' + q(queue) + '/batches')]).then(function (results) {
				var page = results[0];
				var history = results[1];
				render('batches', results[2], function () {
					return batchesPanel(results[2]);
				});
				var now = Date.now();
				sampler.sample(queue, page.queue.counters, now);
				var minutes = history.kept ? engineMinutes(history, queue) : sampler.minutes();
				render('tabs', [page.state, page.queue.counts], function () {
					return tabs(page, select);
				});
				render('listener', page.queue, function () {
					return listenerPanel(page.queue);
				});
				render('flow', [page.queue.flow, page.queue.listener], function () {
					return flowPanel(page.queue);
				});
				render('jobs', page, function () {
					return jobsPanel(queue, page, select);
				});
				render('throughput', [minutes, Math.floor(now / MINUTE)], function () {
					return chartPanel('throughput', minutes, history.kept);
				});
			}, function (error) {
				if (error instanceof ApiError && error.status === 400 && view.offset > 0) {
					view.offset = 0;
				}
				else if (error instanceof ApiError) {
					render('jobs', error.message, function () {
						return el('section', { id: 'jobs', class: 'panel problem' }, el('p', { id: 'error-message', text: error.message }));
					});
				}
				throw error;
			});
		});
	}

	function tabs(page, select) {
		return el('div', { id: 'tabs', class: 'tabs' }, Object.keys(page.queue.counts).map(function (state) {
			return el('a', {
				href: '?state=' + state,
				id: 'tab-' + state,
				class: 'tab' + (state === page.state ? ' selected' : ''),
				'data-count': page.queue.counts[state],
				onclick: function (event) {
					event.preventDefault();
					select(state, 0);
				}
			}, el('span', { class: 'label', text: STATE_LABELS[state] || state }),
			el('span', { class: 'value count-' + state, 'data-count': page.queue.counts[state], text: page.queue.counts[state] }));
		}));
	}

	function listenerPanel(queue) {
		var counters = queue.counters;
		return el('section', { id: 'listener', class: 'panel' },
			el('div', { class: 'row' },
				el('h2', { text: 'Listener on this node' }),
				listenerBadge(queue.listener),
				el('span', { class: 'spacer' }),
				el('span', { class: 'muted', text: 'All nodes: ' + (counters.completed || 0) + ' completed, ' + (counters.retried || 0)
					+ ' retried, ' + (counters.dead || 0) + ' dead-lettered, ' + (counters.replayed || 0) + ' replayed' }),
				pauseButton(queue.name, queue.listener)),
			el('div', { class: 'row' },
				el('h2', { text: 'Every node' }),
				clusterBadge(queue),
				el('span', { class: 'spacer' }),
				clusterButton(queue)),
			el('h2', { text: 'Listeners on other nodes', class: 'section' }),
			nodesTable(queue));
	}

	function partitionSelect(page, select) {
		if (page.partitionCount < 2) {
			return null;
		}
		var options = [el('option', { value: '', text: 'All ' + page.partitionCount + ' partitions', selected: page.partition === null })];
		page.queue.flow.partitions.forEach(function (partition) {
			options.push(el('option', { value: partition.index, text: '#' + partition.index + ' ' + partition.name + ' (' + partition.counts[page.state] + ')',
				selected: page.partition === partition.index }));
		});
		return el('label', { class: 'muted' }, 'Partition ', el('select', { id: 'partition', onchange: function (event) {
			select(page.state, 0, event.target.value);
		} }, options));
	}

	function limitText(limit, rate, periodMillis) {
		var parts = [];
		if (limit !== null && limit !== undefined) {
			parts.push('at most ' + limit + ' active');
		}
		if (rate !== null && rate !== undefined) {
			parts.push(rate + ' started per ' + period(periodMillis));
		}
		return parts.length ? parts.join(', ') : 'none';
	}

	function storedText(flow) {
		var parts = [];
		var stored = flow.stored;
		if (stored && (stored.maxActive !== null || stored.rateLimit !== null)) {
			parts.push('queue: ' + limitText(stored.maxActive, stored.rateLimit, stored.ratePeriodMillis));
		}
		if (stored && (stored.laneMaxActive !== null || stored.laneRateLimit !== null)) {
			parts.push('each lane: ' + limitText(stored.laneMaxActive, stored.laneRateLimit, stored.laneRatePeriodMillis));
		}
		if (flow.storedConcurrency !== null && flow.storedConcurrency !== undefined) {
			parts.push('concurrency ' + flow.storedConcurrency + ' per listener');
		}
		return parts.join('; ');
	}

	function flowPanel(queue) {
		var flow = queue.flow;
		var limits = flow.limits;
		var stored = flow.stored || flow.storedConcurrency !== null && flow.storedConcurrency !== undefined;
		if (!limits && !stored && !flow.lanes.length && !flow.partitions.length) {
			return el('section', { id: 'flow', class: 'panel' },
				el('div', { class: 'row' },
					el('h2', { text: 'Flow' }),
					el('span', { id: 'flow-none', class: 'muted', text: 'No flow limits (echomq.queues.' + queue.name
						+ '.max-active, rate-limit, lanes.*), no lane with ready work, one partition.' })));
		}
		var partitions = flow.partitions.length ? el('table', { id: 'partition-table' },
			el('thead', null, el('tr', null, el('th', { text: 'Partition' }), el('th', { text: 'Engine name' }),
				el('th', { class: 'num', text: 'Pending' }), el('th', { class: 'num', text: 'Active' }),
				el('th', { class: 'num', text: 'Scheduled' }), el('th', { class: 'num', text: 'Dead' }),
				el('th', { class: 'num', text: 'Lanes' }), el('th', { class: 'num', text: 'Completed' }), el('th', { text: 'Served by' }))),
			el('tbody', null, flow.partitions.map(function (partition) {
				return el('tr', { id: 'partition-' + partition.index, class: 'partition-row', 'data-partition': partition.name },
					el('td', { class: 'num', text: '#' + partition.index }),
					el('td', { class: 'mono partition-name', text: partition.name }),
					['pending', 'active', 'schedule', 'dead'].map(function (state) {
						return el('td', { class: 'num count-' + state, 'data-count': partition.counts[state], text: partition.counts[state] });
					}),
					el('td', { class: 'num lane-count', text: partition.lanes }),
					el('td', { class: 'num total-completed', text: partition.counters.completed || 0 }),
					el('td', { class: 'muted partition-node', text: partition.node || 'this server (not a cluster)' }));
			}))) : null;
		var lanes = flow.lanes.length ? el('table', { id: 'lane-table' },
			el('thead', null, el('tr', null, el('th', { text: 'Lane' }), el('th', { class: 'num', text: 'Pending' }),
				flow.partitionCount > 1 ? el('th', { text: 'Partition' }) : null)),
			el('tbody', null, flow.lanes.map(function (lane, index) {
				return el('tr', { id: 'lane-' + lane.lane, class: 'lane-row', 'data-lane': lane.lane },
					el('td', { class: 'mono lane-name' }, lane.lane, index === 0 ? el('span', { class: 'muted', text: ' (next turn)' }) : null),
					el('td', { class: 'num lane-pending', text: lane.pending }),
					flow.partitionCount > 1 ? el('td', { class: 'mono', text: lane.partition }) : null);
			}))) : el('p', { class: 'muted', id: 'no-lanes', text: 'No lane has ready work.' });
		var limitRows = el('dl', { id: 'limits', class: 'fields' },
			el('dt', { text: 'Queue (every node)' }),
			el('dd', { id: 'limit-queue', text: limits ? limitText(limits.maxActive, limits.rateLimit, limits.ratePeriodMillis) : 'none' }),
			limits && limits.perPartition ? [el('dt', { text: 'Each partition' }),
				el('dd', { id: 'limit-partition', text: limitText(limits.perPartition.maxActive, limits.perPartition.rateLimit, limits.perPartition.ratePeriodMillis) })] : null,
			el('dt', { text: 'Each lane' }),
			el('dd', { id: 'limit-lane', text: limits ? limitText(limits.laneMaxActive, limits.laneRateLimit, limits.laneRatePeriodMillis) : 'none' }),
			stored ? [el('dt', { text: 'Stored at run time (wins)' }),
				el('dd', { id: 'limit-stored', title: 'Set through EchoMqAdmin or the actuator endpoint: wins over the configured values on every node until reset' },
					storedText(flow))] : null,
			el('dt', { text: 'Pause (every node)' }),
			el('dd', { id: 'limit-pause' }, clusterBadge(queue)));
		return el('section', { id: 'flow', class: 'panel' },
			el('div', { class: 'row' },
				el('h2', { text: 'Flow' }),
				partitionBadge(flow),
				el('span', { class: 'spacer' }),
				el('span', { class: 'muted', text: (queue.listener ? 'Limits this node\'s listener is configured with' : 'Limits configured under echomq.queues.' + queue.name)
					+ (stored ? '; the stored ones win' : '') })),
			el('div', { class: 'flow-grid' },
				el('div', null, el('h2', { class: 'section', text: 'Limits' }), limitRows),
				el('div', null, el('h2', { class: 'section', id: 'lanes-title', text: 'Lanes with work (' + flow.laneCount + ')' }), lanes)),
			partitions ? [el('h2', { class: 'section', text: 'Partitions' }), partitions] : null);
	}

	var LIMIT_FIELDS = [
		['maxActive', 'Max active', 'limit-max-active', '10'],
		['rateLimit', 'Rate', 'limit-rate', '100'],
		['period', 'per', 'limit-period', '1s'],
		['laneMaxActive', 'Lane max active', 'limit-lane-max-active', '2'],
		['laneRateLimit', 'Lane rate', 'limit-lane-rate', '10'],
		['lanePeriod', 'per', 'limit-lane-period', '1s'],
		['concurrency', 'Concurrency', 'limit-concurrency', '4']
	];

	/** Built once, outside the polled panels, so that a refresh does not clear what is typed. */
	function limitsForm(queue) {
		var inputs = {};
		var fields = LIMIT_FIELDS.map(function (field) {
			inputs[field[0]] = el('input', { id: field[2], name: field[0], placeholder: field[3], size: 5, autocomplete: 'off' });
			return el('label', { class: 'muted' }, field[1] + ' ', inputs[field[0]]);
		});
		var which = el('select', { id: 'limits-reset-which' },
			['all', 'max-active', 'rate-limit', 'lane-max-active', 'lane-rate-limit', 'concurrency'].map(function (name) {
				return el('option', { value: name, text: name === 'all' ? 'every setting' : name });
			}));
		function send(path, done) {
			request('POST', path).then(function (outcome) {
				toast(outcome.message, false);
				done();
				refresh();
			}, function (error) {
				toast(error.message || String(error), true);
			});
		}
		return el('section', { id: 'limits-form', class: 'panel' },
			el('div', { class: 'row' },
				el('h2', { text: 'Change limits (every node)' }),
				el('span', { class: 'muted', text: 'Stored values win over the configured ones until reset; fill in any of them, periods such as 1s, 500ms or PT1M.' })),
			el('div', { class: 'row limit-inputs' }, fields,
				el('button', { id: 'limits-store', text: 'Store', onclick: function () {
					var query = Object.keys(inputs).filter(function (name) {
						return inputs[name].value.trim() !== '';
					}).map(function (name) {
						return name + '=' + encodeURIComponent(inputs[name].value.trim());
					});
					send('/queues/' + q(queue) + '/limits' + (query.length ? '?' + query.join('&') : ''), function () {
						Object.keys(inputs).forEach(function (name) {
							inputs[name].value = '';
						});
					});
				} })),
			el('div', { class: 'row' },
				el('label', { class: 'muted' }, 'Reset ', which),
				el('button', { id: 'limits-reset', text: 'Reset to configuration', onclick: function () {
					send('/queues/' + q(queue) + '/limits/reset?which=' + encodeURIComponent(which.value), function () {});
				} })));
	}

	function jobsPanel(queue, page, select) {
		var state = page.state;
		var header = el('div', { class: 'row' },
			el('h2', { text: (STATE_LABELS[state] || state) + ' jobs' }),
			el('span', { class: 'muted', text: state === 'pending' ? 'last in line first' : 'latest first' }),
			partitionSelect(page, select),
			el('span', { class: 'spacer' }),
			state === 'dead' && config.canWrite && page.total > 0 ? el('div', { class: 'actions' },
				el('button', { id: 'replay-all', text: 'Replay all dead', onclick: function () {
					act('/queues/' + q(queue) + '/dead/replay');
				} }),
				el('button', { id: 'purge-dead', class: 'danger', text: 'Purge dead', onclick: function () {
					act('/queues/' + q(queue) + '/dead/purge', 'Delete all ' + plural(page.total, 'dead job') + ' of ' + queue + '? This cannot be undone.');
				} })) : null);
		var laneNote = state === 'pending' && page.queue.flow.laneCount > 0
			? el('p', { id: 'lane-note', class: 'muted', text: 'Pending counts the jobs waiting in lanes too: they are listed after the others, lane by lane in turn order.' }) : null;
		var laned = state === 'pending' && Object.keys(page.lanes || {}).length > 0;
		if (!page.jobs.length) {
			return el('section', { id: 'jobs', class: 'panel' }, header, el('p', { class: 'muted empty', text: 'No ' + (STATE_LABELS[state] || state).toLowerCase() + ' jobs.' }), laneNote);
		}
		var head = el('tr', null,
			el('th', { text: 'Job' }),
			page.partitionCount > 1 ? el('th', { text: 'Partition' }) : null,
			laned ? el('th', { text: 'Lane' }) : null,
			el('th', { class: 'num', text: 'Attempts' }),
			el('th', { text: 'Enqueued' }),
			AT_LABELS[state] ? el('th', { text: AT_LABELS[state] }) : null,
			state === 'active' ? el('th', { text: 'Owner' }) : null,
			el('th', { text: 'Last error' }),
			el('th', { text: 'Payload' }),
			config.canWrite && jobActions(queue, state, '').length ? el('th', { text: '' }) : null);
		var rows = page.jobs.map(function (job) {
			return el('tr', { id: 'job-' + job.id, class: 'job-row', 'data-id': job.id },
				el('td', null, el('a', { class: 'job-link mono', href: config.base + '/queues/' + q(queue) + '/jobs/' + job.id, text: job.id })),
				page.partitionCount > 1 ? el('td', { class: 'partition mono', text: page.partitions[job.id] || '' }) : null,
				laned ? el('td', { class: 'lane mono', text: page.lanes[job.id] || '' }) : null,
				el('td', { class: 'num', text: job.attempts + ' / ' + job.maxAttempts }),
				el('td', null, when(job.enqueuedAt)),
				AT_LABELS[state] ? el('td', null, when(job.at)) : null,
				state === 'active' ? ownerCell(job) : null,
				el('td', { class: 'error', text: job.lastError || '' }),
				el('td', { class: 'payload mono', text: text(job.payload) }),
				config.canWrite && jobActions(queue, state, job.id).length ? el('td', null, actionButtons(queue, state, job.id, false)) : null);
		});
		var last = page.offset + page.jobs.length;
		var pager = el('div', { class: 'pager' },
			el('button', { id: 'previous', text: '‹ Newer', disabled: page.offset === 0, onclick: function () {
				select(state, Math.max(0, page.offset - page.limit));
			} }),
			el('span', { id: 'range', text: (page.offset + 1) + '–' + last + ' of ' + page.total }),
			el('button', { id: 'next', text: 'Older ›', disabled: page.offset + page.limit >= page.total
				|| (page.mergedWindow && page.offset + 2 * page.limit > page.mergedWindow), onclick: function () {
				select(state, page.offset + page.limit);
			} }),
			page.mergedWindow && page.offset + 2 * page.limit > page.mergedWindow && page.offset + page.limit < page.total
				? el('span', { id: 'merged-window', text: 'All partitions page up to ' + page.mergedWindow + ' jobs: choose a partition to go further.' }) : null);
		return el('section', { id: 'jobs', class: 'panel' }, header,
			el('table', { id: 'job-table' }, el('thead', null, head), el('tbody', null, rows)), pager, laneNote,
			config.showValues ? null : el('p', { class: 'muted', text: 'Payloads are hidden (management.endpoint.echomq.show-values, or echomq.dashboard.show-values).' }));
	}

	// ---------- job page ----------

	function jobPage() {
		var queue = pathPart(2);
		var id = pathPart(4);
		document.title = id + ' · EchoMQ';
		var main = document.getElementById('main');
		main.textContent = '';
		append(main, [
			el('div', { class: 'crumbs' }, el('a', { href: config.base + '/', text: 'Queues' }), ' / ',
				el('a', { id: 'queue-link', href: config.base + '/queues/' + q(queue), text: queue }), ' / '),
			el('h1', { class: 'mono', text: id }),
			el('section', { id: 'job', class: 'panel' }, el('p', { class: 'muted', text: 'Loading…' }))
		]);
		var parentBatch = null;
		start(function () {
			return get('/queues/' + q(queue) + '/jobs/' + id).then(function (job) {
				var parentId = job.fields.flow_parent_id;
				// a batch is a flow parent without a job row: asked once whether the parent is one
				var probe = parentId && parentBatch === null
					? get('/queues/' + q(job.fields.flow_parent_queue) + '/batches/' + encodeURIComponent(parentId)).then(function () {
						parentBatch = true;
					}, function () {
						parentBatch = false;
					})
					: Promise.resolve();
				return probe.then(function () {
					render('job', [job, parentBatch, Math.floor(Date.now() / 10000)], function () {
						return jobPanel(queue, job, parentBatch === true);
					});
				});
			}, function (error) {
				if (error instanceof ApiError && error.status === 404) {
					render('job', error.message, function () {
						return el('section', { id: 'job', class: 'panel' },
							el('div', { class: 'row' }, el('span', { id: 'job-state', class: 'badge', 'data-state': 'gone', text: 'No row' })),
							el('p', { id: 'job-gone', text: error.message }));
					});
				}
				throw error;
			});
		});
	}

	// what the handler last reported: a bar for the percent, the object as the payload is shown
	function progressSection(job) {
		var hasPercent = job.progress !== null && job.progress !== undefined;
		var hasData = job.progressData !== null && job.progressData !== undefined;
		if (!hasPercent && !hasData) {
			return null;
		}
		return el('div', { id: 'job-progress-section' },
			el('h2', { text: 'Progress', class: 'section' }),
			hasPercent ? el('div', { class: 'row progress-row' },
				el('progress', { id: 'job-progress', max: '100', value: String(job.progress), 'data-percent': String(job.progress) }),
				el('span', { id: 'job-progress-percent', class: 'num', text: job.progress + ' %' })) : null,
			hasData ? el('pre', { id: 'job-progress-data', text: text(job.progressData) }) : null);
	}

	// a job of a flow links to its parent and to the whole flow (flow_* fields, docs/flows.md)
	function flowLine(queue, job, inBatch) {
		var parentQueue = job.fields.flow_parent_queue;
		var parentId = job.fields.flow_parent_id;
		if (!parentId && !job.fields.flow_children) {
			return null;
		}
		return el('p', { id: 'job-flow-links', class: 'row' },
			parentId && inBatch ? el('span', null, 'Batch ', el('a', { id: 'job-batch', class: 'mono',
				href: batchHref(parentQueue, parentId), text: parentQueue + '/' + parentId })) : null,
			parentId && !inBatch ? el('span', null, 'Parent ', el('a', { id: 'job-parent', class: 'mono',
				href: config.base + '/queues/' + q(parentQueue) + '/jobs/' + encodeURIComponent(parentId), text: parentQueue + '/' + parentId })) : null,
			el('a', { id: 'job-flow', href: config.base + '/queues/' + q(queue) + '/jobs/' + encodeURIComponent(job.id) + '/flow', text: 'Whole flow' }));
	}

	function jobPanel(queue, job, inBatch) {
		var actions = actionButtons(queue, job.state, job.id, true);
		var fields = el('dl', { class: 'fields' });
		Object.keys(job.fields).forEach(function (name) {
			append(fields, [el('dt', { text: name }), el('dd', { class: 'mono field', 'data-field': name, text: text(job.fields[name]) })]);
		});
		return el('section', { id: 'job', class: 'panel' },
			el('div', { class: 'row' },
				el('span', { id: 'job-state', class: 'badge ' + job.state, 'data-state': job.state, text: STATE_LABELS[job.state] || label(job.state) }),
				el('span', { id: 'job-attempts', text: plural(job.attempts, 'claim') + (job.released ? ', ' + job.released + ' handed back' : '')
					+ '; budget ' + job.maxAttempts }),
				job.partition ? el('span', { id: 'job-partition', class: 'mono', title: 'The partition its id names', text: 'partition ' + job.partition }) : null,
				el('span', { class: 'spacer' }),
				actions),
			ownerLine(job),
			flowLine(queue, job, inBatch),
			job.problem ? el('p', { class: 'notice', text: job.problem }) : null,
			el('h2', { text: 'Last error', class: 'section' }),
			job.lastError ? el('pre', { id: 'job-error', text: job.lastError }) : el('p', { class: 'muted', text: 'None.' }),
			el('h2', { text: 'Payload', class: 'section' }),
			el('pre', { id: 'job-payload', text: text(job.payload) }),
			progressSection(job),
			job.result !== null && job.result !== undefined ? el('h2', { text: 'Result', class: 'section' }) : null,
			job.result !== null && job.result !== undefined ? el('pre', { id: 'job-result', text: text(job.result) }) : null,
			el('h2', { text: 'Timeline', class: 'section' }),
			el('ol', { id: 'timeline', class: 'timeline' }, job.timeline.map(function (entry) {
				return el('li', { 'data-event': entry.event }, el('strong', { text: entry.label }), ' ', when(entry.at),
					el('span', { class: 'muted', text: ' (' + relative(entry.at) + ')' }));
			})),
			el('h2', { text: 'Row', class: 'section' }),
			fields);
	}

	// ---------- flow page ----------

	function jobHref(ref) {
		var slash = ref.lastIndexOf('/');
		return config.base + '/queues/' + q(ref.substring(0, slash)) + '/jobs/' + encodeURIComponent(ref.substring(slash + 1));
	}

	function flowPage() {
		var queue = pathPart(2);
		var id = pathPart(4);
		document.title = 'Flow of ' + id + ' · EchoMQ';
		var main = document.getElementById('main');
		main.textContent = '';
		append(main, [
			el('div', { class: 'crumbs' }, el('a', { href: config.base + '/', text: 'Queues' }), ' / ',
				el('a', { id: 'queue-link', href: config.base + '/queues/' + q(queue), text: queue }), ' / ',
				el('a', { id: 'job-link', class: 'mono', href: config.base + '/queues/' + q(queue) + '/jobs/' + encodeURIComponent(id), text: id }), ' / '),
			el('h1', { text: 'Flow' }),
			el('section', { id: 'flow-tree', class: 'panel' }, el('p', { class: 'muted', text: 'Loading…' }))
		]);
		start(function () {
			return get('/queues/' + q(queue) + '/jobs/' + encodeURIComponent(id) + '/flow').then(function (flow) {
				render('flow-tree', flow, function () {
					return flowTreePanel(flow);
				});
			}, function (error) {
				if (error instanceof ApiError && error.status === 404) {
					render('flow-tree', error.message, function () {
						return el('section', { id: 'flow-tree', class: 'panel' }, el('p', { id: 'flow-gone', text: error.message }));
					});
				}
				throw error;
			});
		});
	}

	function flowTreePanel(flow) {
		var counts = el('div', { id: 'flow-counts', class: 'row' }, Object.keys(flow.counts).map(function (state) {
			return el('span', { class: 'badge ' + state, 'data-state': state, 'data-count': String(flow.counts[state]),
				text: (STATE_LABELS[state] || label(state)) + ' ' + flow.counts[state] });
		}));
		var head = el('tr', null, el('th', { text: 'Job' }), el('th', { text: 'State' }), el('th', { text: 'Progress' }),
			el('th', { text: 'Result' }), el('th', { text: 'Parent' }), el('th', { text: 'Children' }));
		var rows = flow.jobs.map(function (job) {
			var name = el('td', { class: 'flow-name' }, el('a', { class: 'mono flow-link', href: jobHref(job.ref), text: job.ref }));
			name.style.paddingLeft = (0.5 + 1.5 * job.depth) + 'em';
			// children left count only while the parent waits: a dead or finished parent waits for none
			var waits = job.state === 'waiting' && job.childrenLeft !== null && job.childrenLeft !== undefined;
			var children = job.children.length ? job.children.length + (waits ? ' (' + job.childrenLeft + ' left)' : '') : '—';
			return el('tr', { id: 'flow-job-' + job.id, class: 'flow-job' + (job.ref === flow.asked ? ' asked' : ''),
				'data-state': job.state, 'data-depth': String(job.depth), 'data-parent': job.parent || '' },
				name,
				el('td', null, el('span', { class: 'badge ' + job.state, text: (STATE_LABELS[job.state] || label(job.state)) + (job.kept ? '' : ' (no row)') })),
				el('td', { class: 'num flow-progress', text: job.progress !== null && job.progress !== undefined ? job.progress + ' %' : '—' }),
				el('td', { class: 'mono flow-result', text: job.result !== null && job.result !== undefined ? text(job.result) : '—' }),
				el('td', null, job.parent ? el('a', { class: 'mono flow-parent', href: jobHref(job.parent), text: job.parent }) : el('span', { class: 'muted', text: 'root' })),
				el('td', { class: 'num flow-children', text: children }));
		});
		return el('section', { id: 'flow-tree', class: 'panel' },
			counts,
			el('p', { id: 'flow-drawn', class: 'muted', text: plural(flow.jobs.length, 'job') + ' drawn of ' + flow.known + ' known'
				+ (flow.truncated ? ': only the first ' + flow.jobs.length + ', depth first, are drawn and counted' : '') }),
			el('table', { id: 'flow-table' }, el('thead', null, head), el('tbody', null, rows)),
			config.showValues ? null : el('p', { class: 'muted', text: 'Results are hidden (management.endpoint.echomq.show-values, or echomq.dashboard.show-values).' }));
	}

	// ---------- batches ----------

	function batchHref(queue, id) {
		return config.base + '/queues/' + q(queue) + '/batches/' + encodeURIComponent(id);
	}

	function batchCounts(batch) {
		return el('span', { class: 'batch-counts' }, ['total', 'pending', 'completed', 'dead'].map(function (name) {
			return el('span', { class: 'badge ' + name, 'data-count': name, text: label(name) + ' ' + batch[name] });
		}));
	}

	function batchesPanel(listing) {
		if (!listing.count) {
			return el('section', { id: 'batches' });
		}
		var rows = listing.batches.map(function (batch) {
			return el('tr', { id: 'batch-' + batch.id, class: 'batch', 'data-state': batch.state },
				el('td', null, el('a', { class: 'mono batch-link', href: batchHref(batch.queue, batch.id), text: batch.id })),
				el('td', null, el('span', { class: 'badge', text: label(batch.state) })),
				el('td', null, batchCounts(batch)),
				el('td', { text: batch.createdAt ? when(batch.createdAt) : '—' }));
		});
		return el('section', { id: 'batches', class: 'panel' },
			el('h2', { class: 'section', text: 'Open and sealed batches' }),
			el('p', { id: 'batches-count', class: 'muted', text: listing.count + (listing.count === 1 ? ' batch' : ' batches')
				+ (listing.truncated ? ': the oldest ' + listing.batches.length + ' are listed' : '') }),
			el('table', { id: 'batch-table' }, el('thead', null, el('tr', null, el('th', { text: 'Batch' }), el('th', { text: 'State' }),
				el('th', { text: 'Jobs' }), el('th', { text: 'Opened' }))), el('tbody', null, rows)));
	}

	function batchPage() {
		var queue = pathPart(2);
		var id = pathPart(4);
		document.title = 'Batch ' + id + ' · EchoMQ';
		var main = document.getElementById('main');
		main.textContent = '';
		append(main, [
			el('div', { class: 'crumbs' }, el('a', { href: config.base + '/', text: 'Queues' }), ' / ',
				el('a', { id: 'queue-link', href: config.base + '/queues/' + q(queue), text: queue }), ' / batches /'),
			el('h1', { class: 'mono', text: id }),
			el('section', { id: 'batch', class: 'panel' }, el('p', { class: 'muted', text: 'Loading…' }))
		]);
		start(function () {
			return get('/queues/' + q(queue) + '/batches/' + encodeURIComponent(id)).then(function (batch) {
				render('batch', batch, function () {
					return batchPanel(batch);
				});
			}, function (error) {
				if (error instanceof ApiError && error.status === 404) {
					render('batch', error.message, function () {
						return el('section', { id: 'batch', class: 'panel' }, el('p', { id: 'batch-gone', text: error.message }));
					});
				}
				throw error;
			});
		});
	}

	function batchPanel(batch) {
		var rows = batch.callbacks.map(function (callback) {
			return el('tr', { id: 'batch-callback-' + callback.kind, class: 'batch-callback', 'data-fired': callback.fired || '' },
				el('td', { text: callback.kind }),
				el('td', null, el('a', { class: 'mono callback-link', href: jobHref(callback.ref), text: callback.ref })),
				el('td', { class: 'callback-fired', text: callback.fired === 'completed' ? 'fired' : (callback.fired || 'not yet') }));
		});
		return el('section', { id: 'batch', class: 'panel' },
			el('div', { class: 'row' },
				el('span', { id: 'batch-state', class: 'badge', 'data-state': batch.state, text: label(batch.state) }),
				batchCounts(batch)),
			el('p', { id: 'batch-times', class: 'muted' }, 'Opened ', batch.createdAt ? when(batch.createdAt) : '—',
				batch.finishedAt ? [', finished ', when(batch.finishedAt)] : null),
			el('h2', { text: 'Callbacks', class: 'section' }),
			rows.length ? el('table', { id: 'batch-callbacks' }, el('thead', null, el('tr', null, el('th', { text: 'On' }),
				el('th', { text: 'Job' }), el('th', { text: 'Fired' }))), el('tbody', null, rows))
				: el('p', { class: 'muted', text: 'None.' }),
			el('p', { id: 'batch-members', class: 'muted', text: 'The batch row counts its jobs but does not list them: each job of the batch '
				+ 'names it as its parent (its page links here).' }));
	}

	// ---------- schedules ----------

	function schedulesPage() {
		document.title = 'Schedules · EchoMQ';
		var main = document.getElementById('main');
		main.textContent = '';
		append(main, [
			el('div', { class: 'crumbs' }, el('a', { href: config.base + '/', text: 'Queues' }), ' / '),
			el('h1', { text: 'Schedules' }),
			el('section', { id: 'schedules', class: 'panel' }, el('p', { class: 'muted', text: 'Loading…' }))
		]);
		start(function () {
			return get('/schedules').then(function (data) {
				render('schedules', [data, Math.floor(Date.now() / 10000)], function () {
					return schedulesPanel(data);
				});
			});
		});
	}

	function schedulePath(schedule, action) {
		return '/schedules/' + q(schedule.queue) + '/' + encodeURIComponent(schedule.name) + '/' + action;
	}

	function schedulesPanel(data) {
		if (!data.ticked) {
			return el('section', { id: 'schedules', class: 'panel' },
				el('p', { class: 'muted', id: 'no-tick', text: 'This node runs no schedule tick (echomq.schedule.enabled=false): schedules are not shown here.' }));
		}
		if (!data.schedules.length) {
			return el('section', { id: 'schedules', class: 'panel' },
				el('p', { class: 'muted empty', text: 'No recurring schedules: declare one with @EchoSchedule, under echomq.schedules, or EchoMqTemplate.schedule.' }));
		}
		var head = el('tr', null, el('th', { text: 'Queue' }), el('th', { text: 'Schedule' }), el('th', { text: 'When' }),
			el('th', { text: 'Declared by' }), el('th', { text: 'Last fire' }), el('th', { text: 'Next fire' }),
			config.canWrite ? el('th', { text: '' }) : null);
		var rows = data.schedules.map(function (schedule) {
			return el('tr', { id: 'schedule-' + schedule.queue + '-' + schedule.name, class: 'schedule-row', 'data-queue': schedule.queue, 'data-name': schedule.name },
				el('td', null, el('a', { href: config.base + '/queues/' + q(schedule.queue), text: schedule.queue })),
				el('td', { class: 'schedule-name mono', text: schedule.name }),
				el('td', { class: 'schedule-spec', text: schedule.spec }),
				el('td', { class: 'muted', text: schedule.origin }),
				el('td', { class: 'last-fire' }, schedule.lastFire ? zoned(schedule.lastFire, schedule.zone) : el('span', { class: 'muted', text: 'never' })),
				el('td', { class: 'next-fire' }, schedule.paused
					? el('span', { class: 'badge paused', title: 'Paused on every node until resumed; a deploy that declares it again keeps it paused', text: 'Paused' })
					: schedule.nextFire ? [zoned(schedule.nextFire, schedule.zone), el('span', { class: 'muted', text: ' (' + relative(schedule.nextFire) + ')' })] : el('span', { class: 'muted', text: 'never again' })),
				config.canWrite ? el('td', null, el('div', { class: 'actions' },
					el('button', { class: 'trigger primary', text: 'Trigger now', onclick: function () {
						act(schedulePath(schedule, 'trigger'));
					} }),
					el('button', { class: schedule.paused ? 'resume-schedule' : 'pause-schedule', text: schedule.paused ? 'Resume' : 'Pause', onclick: function () {
						act(schedulePath(schedule, schedule.paused ? 'resume' : 'pause'));
					} }),
					el('button', { class: 'delete-schedule danger', text: 'Delete', onclick: function () {
						act(schedulePath(schedule, 'delete'), 'Delete schedule ' + schedule.name + ' of ' + schedule.queue + '?'
							+ (schedule.origin === 'api' ? '' : ' It is declared by the application and comes back at its next start-up: pause it to stop it for good.'));
					} }))) : null);
		});
		return el('section', { id: 'schedules', class: 'panel' },
			el('table', { id: 'schedule-table' }, el('thead', null, head), el('tbody', null, rows)));
	}

	// ---------- start ----------

	function find(event) {
		event.preventDefault();
		var id = document.getElementById('find-id').value.trim();
		if (id) {
			window.location.href = config.base + '/jobs/' + encodeURIComponent(id);
		}
	}

	document.addEventListener('DOMContentLoaded', function () {
		document.getElementById('find').addEventListener('submit', find);
		if (config.kind === 'queue') {
			queuePage();
		}
		else if (config.kind === 'job') {
			jobPage();
		}
		else if (config.kind === 'flow') {
			flowPage();
		}
		else if (config.kind === 'batch') {
			batchPage();
		}
		else if (config.kind === 'schedules') {
			schedulesPage();
		}
		else {
			overview();
		}
	});
})();
