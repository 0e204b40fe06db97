package io.echomq.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.core.JobId;
import io.echomq.flow.FlowJob;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /signups} with {@code {"email": "...", "name": "..."}}: answers the jobs,
 * the "welcome done" job that runs after them, and the welcome email's result when it
 * came within 2 s ({@code pending} else).
 *
 * @author EchoMQ
 */
@RestController
public class SignupController {

	private static final Duration WELCOME_WAIT = Duration.ofSeconds(2);

	private final SignupService signups;

	public SignupController(SignupService signups) {
		this.signups = signups;
	}

	@PostMapping("/signups")
	@ResponseStatus(HttpStatus.ACCEPTED)
	public Map<String, Object> signUp(@RequestBody Signup signup) {
		FlowJob flow = this.signups.signUp(signup);
		List<JobId> jobs = flow.children().stream().map(FlowJob::id).toList();
		// the welcome email usually goes out within milliseconds: say so when it did
		String welcome = this.signups.welcomeResult(jobs.get(0), WELCOME_WAIT);
		return Map.of("jobs", jobs.stream().map(JobId::toString).toList(), "done", flow.id().toString(), "welcome",
				(welcome != null) ? welcome : "pending");
	}

}
