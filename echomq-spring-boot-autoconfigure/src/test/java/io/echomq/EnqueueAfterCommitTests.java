package io.echomq;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import io.echomq.core.EnqueueAfterCommitException;
import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.internal.KeyType;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Enqueues inside a Spring-managed transaction on a real PostgreSQL wait for the commit
 * and are dropped on rollback, through the propagation cases a service meets.
 *
 * @author EchoMQ
 */
class EnqueueAfterCommitTests {

	private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String QUEUE = "orders";

	private static TestServer server;

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private final String table = "emq_orders_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

	private final AtomicBoolean failWrites = new AtomicBoolean();

	private SimpleDriverDataSource dataSource;

	@BeforeAll
	static void requirePostgreSql() {
		try (Connection connection = DriverManager.getConnection(URL, "postgres", "")) {
			assertThat(connection.isValid(2)).isTrue();
		}
		catch (SQLException ex) {
			String reason = "PostgreSQL is not reachable on " + URL + " (" + ex.getMessage() + ")";
			if (Boolean.parseBoolean(System.getenv("CI"))) {
				throw new IllegalStateException(reason + "; CI must start it (see .ci/run)", ex);
			}
			Assumptions.abort(reason);
		}
		server = ListenerTestSupport.sharedServer();
	}

	@BeforeEach
	void createTable() {
		this.dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), URL, "postgres", "");
		new JdbcTemplate(this.dataSource).execute("create table " + this.table + " (id text primary key)");
	}

	@AfterEach
	void dropTable() {
		new JdbcTemplate(this.dataSource).execute("drop table if exists " + this.table);
	}

	@Test
	void committedTransactionEnqueuesAtCommitNotBefore() {
		runner().run((context) -> {
			EchoMqTemplate echoMq = context.getBean(EchoMqTemplate.class);
			JobId id = transactions(context).execute((status) -> {
				insert("a");
				JobId enqueued = echoMq.enqueue(QUEUE, "order a");
				assertThat(pending()).as("not written before the commit").isEmpty();
				return enqueued;
			});
			assertThat(pending()).containsExactly(id.toString());
			assertThat(rows()).isEqualTo(1);
		});
	}

	@Test
	void rolledBackTransactionEnqueuesNothing() {
		runner().run((context) -> {
			EchoMqTemplate echoMq = context.getBean(EchoMqTemplate.class);
			transactions(context).executeWithoutResult((status) -> {
				insert("a");
				echoMq.enqueue(QUEUE, "order a");
				status.setRollbackOnly();
			});
			assertThat(pending()).isEmpty();
			assertThat(metrics()).doesNotContainKey("enqueued");
			assertThat(rows()).isZero();
		});
	}

	@Test
	void immediateEnqueueIgnoresTheTransaction() {
		runner().run((context) -> {
			EchoMqTemplate echoMq = context.getBean(EchoMqTemplate.class);
			JobId[] id = new JobId[1];
			transactions(context).executeWithoutResult((status) -> {
				id[0] = echoMq.enqueue(QUEUE, "audit", EnqueueOptions.defaults().withAfterCommit(false));
				assertThat(pending()).containsExactly(id[0].toString());
				status.setRollbackOnly();
			});
			assertThat(pending()).containsExactly(id[0].toString());
		});
	}

	@Test
	void propertyTurnsDeferralOff() {
		runner().withPropertyValues("echomq.template.enqueue-after-commit=false").run((context) -> {
			EchoMqTemplate echoMq = context.getBean(EchoMqTemplate.class);
			assertThat(echoMq.isEnqueueAfterCommit()).isFalse();
			transactions(context).executeWithoutResult((status) -> {
				echoMq.enqueue(QUEUE, "now");
				assertThat(pending()).hasSize(1);
				status.setRollbackOnly();
			});
			assertThat(pending()).hasSize(1);
		});
	}

	@Test
	void requiresNewCommitsItsOwnEnqueuesWhenTheOuterTransactionRollsBack() {
		runner().run((context) -> {
			EchoMqTemplate echoMq = context.getBean(EchoMqTemplate.class);
			TransactionTemplate inner = transactions(context);
			inner.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
			JobId[] ids = new JobId[2];
			transactions(context).executeWithoutResult((status) -> {
				ids[0] = echoMq.enqueue(QUEUE, "outer");
				insert("outer");
				ids[1] = inner.execute((innerStatus) -> {
					insert("inner");
					return echoMq.enqueue(QUEUE, "inner");
				});
				assertThat(pending()).as("the inner transaction committed").containsExactly(ids[1].toString());
				status.setRollbackOnly();
			});
			assertThat(pending()).containsExactly(ids[1].toString());
			assertThat(rows()).isEqualTo(1);
		});
	}

	@Test
	void nestedRollbackDropsOnlyTheEnqueuesAfterItsSavepoint() {
		runner().run((context) -> {
			EchoMqTemplate echoMq = context.getBean(EchoMqTemplate.class);
			TransactionTemplate nested = transactions(context);
			nested.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
			JobId[] ids = new JobId[3];
			transactions(context).executeWithoutResult((status) -> {
				ids[0] = echoMq.enqueue(QUEUE, "before");
				nested.executeWithoutResult((nestedStatus) -> {
					insert("dropped");
					ids[1] = echoMq.enqueue(QUEUE, "dropped");
					nestedStatus.setRollbackOnly();
				});
				nested.executeWithoutResult((nestedStatus) -> {
					insert("kept");
					ids[2] = echoMq.enqueue(QUEUE, "kept");
				});
				assertThat(pending()).as("nested transactions wait for the outer commit").isEmpty();
			});
			assertThat(pending()).containsExactlyInAnyOrder(ids[0].toString(), ids[2].toString());
			assertThat(rows()).isEqualTo(1);
		});
	}

	@Test
	void enqueueThatFailsAtCommitIsThrownToTheCallerOfTheCommit() {
		runner().run((context) -> {
			EchoMqTemplate echoMq = context.getBean(EchoMqTemplate.class);
			JobId[] id = new JobId[1];
			assertThatExceptionOfType(EnqueueAfterCommitException.class)
				.isThrownBy(() -> transactions(context).executeWithoutResult((status) -> {
					insert("a");
					id[0] = echoMq.enqueue(QUEUE, "order a");
					this.failWrites.set(true);
				}))
				.satisfies((ex) -> {
					assertThat(ex.getQueue()).isEqualTo(QUEUE);
					assertThat(ex.getIds()).containsExactly(id[0]);
					assertThat(ex).hasMessageContaining("Transaction committed").hasRootCauseMessage("Redis is down");
				});
			assertThat(rows()).as("the transaction stays committed").isEqualTo(1);
			assertThat(pending()).isEmpty();
		});
	}

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix)
			.withBean(DataSource.class, () -> this.dataSource)
			.withBean(DataSourceTransactionManager.class, () -> new DataSourceTransactionManager(this.dataSource))
			.withBean(EnqueueInterceptor.class, () -> (queue, fields) -> {
				if (this.failWrites.get()) {
					throw new IllegalStateException("Redis is down");
				}
				return fields;
			});
	}

	private TransactionTemplate transactions(AssertableApplicationContext context) {
		return new TransactionTemplate(context.getBean(DataSourceTransactionManager.class));
	}

	private void insert(String id) {
		new JdbcTemplate(this.dataSource).update("insert into " + this.table + " (id) values (?)", id);
	}

	private int rows() {
		Integer count = new JdbcTemplate(this.dataSource).queryForObject("select count(*) from " + this.table,
				Integer.class);
		return (count != null) ? count : -1;
	}

	private Set<String> pending() {
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			return probe.members(QUEUE, KeyType.PENDING);
		}
	}

	private Map<String, String> metrics() {
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			return probe.metrics(QUEUE);
		}
	}

}
