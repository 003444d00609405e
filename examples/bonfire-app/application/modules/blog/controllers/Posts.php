<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Blog posts: the public articles (routed as /articles by Route::resources)
 * and the monthly archive (modules/blog/config/routes.php).
 */
class Posts extends MX_Controller
{
    public function __construct()
    {
        parent::__construct();
        $this->load->model('post_model');
        $this->load->helper('url');
    }

    public function index()
    {
        $this->load->view('posts/index', array('posts' => $this->post_model->find_all()));
    }

    public function create_new()
    {
        $this->load->view('posts/form', array('post' => null));
    }

    public function create()
    {
        $id = $this->post_model->insert($this->input->post());
        redirect('articles/' . $id);
    }

    public function show($id)
    {
        $this->load->view('posts/show', array('post' => $this->post_model->find((int) $id)));
    }

    public function edit($id)
    {
        $this->load->view('posts/form', array('post' => $this->post_model->find((int) $id)));
    }

    public function update($id)
    {
        $this->post_model->update((int) $id, $this->input->input_stream());
        redirect('articles/' . (int) $id);
    }

    public function delete($id)
    {
        $this->post_model->delete((int) $id);
        redirect('articles');
    }

    public function archive($year, $month = null)
    {
        $posts = $this->post_model->find_by_date((int) $year, $month === null ? null : (int) $month);
        $this->load->view('posts/archive', array('posts' => $posts, 'year' => $year));
    }
}
